// `cpilot hook <agent>` answered: the agent's handler, the config, the engine; and the
// hidden forms of the command (a config's trial load, a background run).
import { basename } from "node:path";
import type { Agent, HookHandler } from "../agents/contract.ts";
import type { HookReply } from "../agents/kit/hook-reply.ts";
import { shadowedBySession } from "../agents/kit/session-hooks.ts";
import { AGENT_NAMES, loadAgent } from "../agents/registry.ts";
import { dieWithParent } from "../platform/parent-death.ts";
import { isTerminal, writeFd } from "../platform/stdio.ts";
import { CpilotError } from "../util/errors.ts";
import { mark } from "../util/trace.ts";
import { answered, emit } from "./hook-emit.ts";
import { ISOLATED_ENV } from "./hook-isolated-env.ts";
import { readStdin } from "./hook-stdin.ts";

export const hookUsage = (): string =>
  `cpilot hook ${AGENT_NAMES.join("|")}   (reads the hook event JSON on stdin; the agent calls it)`;

/** Answer one hook call. */
export async function answerHookCall(args: string[], ctx: { cwd: string }): Promise<number> {
  // A child that loads a config for its parent (below) ends with it, whatever that code does.
  await dieWithParent();
  const [agent, ...rest] = args;
  // A config's trial load for `cpilot mcp` and `cpilot check` (src/config/load-probe.ts).
  if (agent === "--load-config") {
    const { answerProbe } = await import("../config/load-probe.ts");
    return answered(await answerProbe(rest[0]));
  }
  if (agent === "--background") {
    const spec = rest[0];
    if (spec === undefined)
      throw new CpilotError("Cannot run in background: no spec file", { hint: hookUsage() });
    const { runBackground } = await import("../agent-session/background-run.ts");
    await runBackground(spec);
    return 0;
  }
  const target = agent === undefined ? undefined : await loadAgent(agent);
  if (target === undefined) {
    throw new CpilotError(
      `Cannot answer hooks for "${agent ?? ""}": cpilot knows ${AGENT_NAMES.join(", ")}`,
      { hint: `usage: ${hookUsage()}` },
    );
  }
  // The isolated child of a hook call (./hook-isolated.ts): it answers its parent only.
  const nonce = process.env[ISOLATED_ENV];
  if (nonce !== undefined) {
    delete process.env[ISOLATED_ENV]; // not for the config's code or the callbacks
    return answered(await answerAsChild(target, nonce, await target.hook(), ctx));
  }
  if (shadowedBySession(target.name, rest, process.env)) {
    await readStdin(); // the agent is writing it: take it, then say nothing
    return answered(emit({ json: target.emptyJson }));
  }
  const { text, complete, problem } = await readStdin();
  mark("hook input read");
  if (!complete) {
    if (text === "" && isTerminal(0)) {
      writeFd(
        2,
        `cpilot: no hook input: this command reads the agent's hook JSON on stdin\nusage: ${hookUsage()}\n`,
      );
      return 0;
    }
    // Unread input: a pre-write call (or one that may be) is denied in the agent's form.
    const { unreadableInputReply } = await import("../agents/kit/unreadable-input.ts");
    return emit(unreadableInputReply(target, text, problem ?? "Cannot read the hook input"));
  }
  const reply = await answerInProcess(target, text, await target.hook(), ctx);
  mark("hook answered");
  return answered(emit(reply));
}

/**
 * Answer here when that runs none of the user's code; a config that would run code
 * (ConfigNeedsIsolation) is loaded in a supervised child instead, and when that child
 * cannot answer, the call is answered here as for a broken config.
 */
async function answerInProcess(
  agent: Agent,
  text: string,
  handle: HookHandler,
  ctx: { cwd: string },
): Promise<HookReply> {
  const { setHookConfigMode, ConfigNeedsIsolation } = await import("../agents/kit/hook-config.ts");
  setHookConfigMode({ kind: "isolate" });
  try {
    return await handle(text, { cwd: ctx.cwd, env: process.env });
  } catch (err) {
    if (!(err instanceof ConfigNeedsIsolation)) throw err;
    const { answerIsolated } = await import("./hook-isolated.ts");
    mark("hook answered in a child: the config runs code");
    return answerIsolated(
      agent,
      text,
      { cwd: ctx.cwd, env: process.env, configName: basename(err.path) },
      async (message) => {
        setHookConfigMode({ kind: "failed", message });
        return handle(text, { cwd: ctx.cwd, env: process.env });
      },
    );
  }
}

/**
 * The child's side: load the config here (no isolation), tell the parent once it loaded
 * (and how long its gate plugins may take), then hand it the reply.
 */
async function answerAsChild(
  agent: Agent,
  nonce: string,
  handle: HookHandler,
  ctx: { cwd: string },
): Promise<number> {
  const { reportLine } = await import("./hook-isolated.ts");
  const { onHookConfigLoaded } = await import("../agents/kit/hook-config.ts");
  const { text, complete, problem } = await readStdin();
  const { mayBePreWrite, sniffEvent } = await import("../agents/kit/unreadable-input.ts");
  if (!complete) {
    const { unreadableInputReply } = await import("../agents/kit/unreadable-input.ts");
    const reply = unreadableInputReply(agent, text, problem ?? "Cannot read the hook input");
    writeFd(1, reportLine(nonce, { reply }));
    return 0;
  }
  const gateBudget = mayBePreWrite(agent, sniffEvent(text))
    ? await import("../gate/budget.ts")
    : null;
  onHookConfigLoaded((config) => {
    const gateBudgetMs = gateBudget?.gateBudgetMs(config.root, config.source.gate);
    writeFd(1, reportLine(nonce, { loaded: true, ...(gateBudgetMs ? { gateBudgetMs } : {}) }));
  });
  const reply = await handle(text, { cwd: ctx.cwd, env: process.env });
  writeFd(1, reportLine(nonce, { reply }));
  return 0;
}
