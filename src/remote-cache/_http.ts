export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  /** Null when larger than the bound (or not read: HEAD). */
  readonly body: Uint8Array | null;
}

export class NoAnswer extends Error {
  override readonly name = "NoAnswer";
  constructor(
    readonly why: "budget" | "unreachable",
    message: string,
  ) {
    super(message);
  }
}

/** At most one redirect, and the token goes only to the server's own origin (reads may go to a CDN). */
export async function request(
  url: string,
  init: {
    method: "GET" | "HEAD" | "PUT" | "POST";
    headers: Record<string, string>;
    body?: Uint8Array | string;
    signal: AbortSignal;
    maxBody: number;
  },
): Promise<Answer> {
  let target = url;
  for (let hop = 0; ; hop++) {
    const sameOrigin = new URL(target).origin === new URL(url).origin;
    const headers = sameOrigin ? init.headers : withoutAuthorization(init.headers);
    let response: Response;
    try {
      response = await fetch(target, {
        method: init.method,
        headers,
        ...(init.body !== undefined ? { body: bodyOf(init.body) } : {}),
        signal: init.signal,
        redirect: "manual",
      });
    } catch (err) {
      throw noAnswer(err, init.signal);
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null && hop === 0) {
      await response.body?.cancel().catch(() => {});
      if (init.method !== "GET" && init.method !== "HEAD") return answer(response, null);
      try {
        target = new URL(location, target).href;
      } catch {
        return answer(response, null);
      }
      if (!target.startsWith("https:") && !target.startsWith("http:"))
        return answer(response, null);
      continue;
    }
    if (init.method === "HEAD") return answer(response, null);
    try {
      return answer(response, await boundedBody(response, init.maxBody));
    } catch (err) {
      throw noAnswer(err, init.signal);
    }
  }
}

function answer(response: Response, body: Uint8Array | null): Answer {
  return { status: response.status, headers: response.headers, body };
}

function withoutAuthorization(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([k]) => k.toLowerCase() !== "authorization"),
  );
}

function noAnswer(err: unknown, signal: AbortSignal): NoAnswer {
  if (signal.aborted) return new NoAnswer("budget", "no answer within the time allowed");
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = (err as { code?: string }).code;
  const why = cause?.code ?? code ?? cause?.message ?? (err as Error).message;
  return new NoAnswer("unreachable", String(why));
}

/** Null past `max`: read in chunks and dropped at once, so gigabytes cost a few reads. */
async function boundedBody(response: Response, max: number): Promise<Uint8Array | null> {
  const declared = Number(response.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel().catch(() => {});
    return null;
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

const bodyOf = (body: Uint8Array | string): string | Uint8Array<ArrayBuffer> =>
  typeof body === "string" ? body : new Uint8Array(body);
