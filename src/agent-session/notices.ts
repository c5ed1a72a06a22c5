import { takeNotices } from "./inbox.ts";

/** Waiting messages for a session, split into failures (the agent must act) and the rest. */
export interface Delivery {
  readonly failing: string[];
  readonly info: string[];
}

/** Take every waiting notice of a session (each is delivered once, across processes). */
export function takeDelivery(root: string, session: string): Delivery {
  const failing: string[] = [];
  const info: string[] = [];
  for (const notice of takeNotices(root, session)) {
    (notice.failing ? failing : info).push(notice.text);
  }
  return { failing, info };
}
