// The hook call's side of the hook server: hand the call to the warm server and write out
// its answer. Loads only what that takes (not the agent, not the engine): this is the
// whole of a served call's own work. Whatever the server does not answer goes back to
// the caller with the input already read, to be answered in this process as without it.
import { socketPath } from "../hook-server/address.ts";
import { connectHookServer } from "../hook-server/client.ts";
import { whenStopped } from "../platform/process-stop.ts";
import { runtimeDir } from "../platform/runtime-dir.ts";
import { mark } from "../util/trace.ts";
import { emit } from "./hook-emit.ts";
import { type HookInput, readStdin } from "./hook-stdin.ts";

/**
 * Payloads past this (a Write of a multi-megabyte file) are answered in-process: copying
 * them through the socket costs more than the server saves (~5 ms).
 */
const SERVER_MAX_PAYLOAD = 1024 * 1024;

export type HandOver =
  /** The server answered, or the call was stopped meanwhile: exit with this. */
  | { readonly kind: "answered"; readonly code: number }
  /**
   * Answer here: `input` when it was read already; `startServer`: no server listens
   * there, so start one for the next calls once this one has its answer.
   */
  | { readonly kind: "here"; readonly input?: HookInput; readonly startServer?: string };

/** Hand the call of `agent` (a known name) to this binary's hook server, if it answers. */
export async function handOver(agent: string, cwd: string): Promise<HandOver> {
  const dir = runtimeDir(process.env);
  const socket = dir === null ? null : socketPath(dir);
  if (socket === null) return { kind: "here" };
  // The connection is made while stdin is read.
  const connection = connectHookServer(socket);
  const input = await readStdin();
  mark("hook input read");
  if (!input.complete) {
    connection.close();
    return { kind: "here", input };
  }
  if (input.text.length > SERVER_MAX_PAYLOAD) {
    connection.close();
    mark("hook server: payload too large to hand over");
    return { kind: "here", input };
  }
  // Stopped meanwhile (SIGTERM: the agent's hook timeout): hang up, which makes the server
  // stop the call's runs, and go.
  const answer = await Promise.race([
    connection.ask({ agent, stdin: input.text, cwd, env: process.env, umask: process.umask() }),
    whenStopped(),
  ]);
  if (answer === "stopped") {
    connection.close();
    return { kind: "answered", code: await stoppedReply(agent, input.text) };
  }
  mark(answer.served ? "hook answered by the server" : `hook server: ${answer.reason}`);
  if (answer.served) return { kind: "answered", code: emit(answer) };
  return "absent" in answer && answer.absent
    ? { kind: "here", input, startServer: socket }
    : { kind: "here", input };
}

/** No verdict came: a pre-write call (or one that may be) is denied, never let through. */
async function stoppedReply(agentName: string, text: string): Promise<number> {
  const { loadAgent } = await import("../agents/registry.ts");
  const agent = await loadAgent(agentName);
  if (agent === undefined) return 0;
  const { mayBePreWrite, sniffEvent } = await import("../agents/kit/unreadable-input.ts");
  if (mayBePreWrite(agent, sniffEvent(text))) {
    const why = "the hook was stopped (SIGTERM) before the hook server answered";
    const { gateUndecided } = await import("../agents/kit/messages.ts");
    emit({ json: agent.denyForm(gateUndecided(why)), stderr: `cpilot: ${why}` });
  }
  return 0;
}
