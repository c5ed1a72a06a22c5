// A hook call's way out: its reply written (protocol on stdout only), then the exit.
import type { HookReply } from "../model/hook.ts";
import { writeFd } from "../platform/stdio.ts";

/** Write a reply out: protocol JSON on stdout, text for people on stderr. Its exit code. */
export function emit(reply: HookReply): number {
  if (reply.stderr) writeFd(2, `${reply.stderr}\n`);
  if (reply.json !== null) writeFd(1, `${JSON.stringify(reply.json)}\n`);
  return reply.exitCode ?? 0;
}

/**
 * Exit as soon as the answer is out: a TypeScript callback that ignores its abort signal
 * (a timer, an open handle) must not keep the agent's hook waiting after the reply.
 */
export function answered(code: number): never {
  process.exit(code);
}
