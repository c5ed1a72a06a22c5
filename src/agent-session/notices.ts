import { takeNotices } from "./inbox.ts";

export interface Delivery {
  readonly failing: string[];
  readonly info: string[];
}

/** Each notice is delivered once, across processes. */
export function takeDelivery(root: string, session: string): Delivery {
  const failing: string[] = [];
  const info: string[] = [];
  for (const notice of takeNotices(root, session)) {
    (notice.failing ? failing : info).push(notice.text);
  }
  return { failing, info };
}
