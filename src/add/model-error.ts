/**
 * A model call that gave nothing usable. `transport` (HTTP error, timeout, network, a body
 * that is not JSON) is not retried; `reply` (no tool call, arguments that are not JSON)
 * is retried once with the problem fed back, like a reply that fails validation.
 */
export class ModelError extends Error {
  override readonly name = "ModelError";
  readonly kind: "transport" | "reply";
  readonly reply: unknown;

  constructor(kind: "transport" | "reply", message: string, reply?: unknown) {
    super(message);
    this.kind = kind;
    this.reply = reply;
  }
}
