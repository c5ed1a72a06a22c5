import { ModelError } from "./model-error.ts";

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 197)}...` : flat;
}

/** Every failure is a `ModelError` of kind "transport" whose message says what happened. */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let text: string;
  let status: number;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
      signal: combined,
    });
    status = response.status;
    text = await response.text();
  } catch (err) {
    if (timeout.aborted) {
      throw new ModelError("transport", `no answer within ${timeoutMs / 1000} s (timed out)`);
    }
    if (signal?.aborted) throw new ModelError("transport", "interrupted");
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (err as Error).message;
    throw new ModelError("transport", `cannot reach ${new URL(url).origin}: ${why}`);
  }
  if (status < 200 || status >= 300) {
    throw new ModelError("transport", `HTTP ${status}${text ? `: ${snippet(text)}` : ""}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ModelError("transport", `the answer is not JSON: ${snippet(text) || "(empty)"}`);
  }
}
