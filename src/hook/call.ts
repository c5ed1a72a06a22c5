// One hook call, from stdin to stdout, for the agent `cpilot hook <agent>` named: its input
// read (bounded), a call that steps aside for a session's own hooks, the isolated child that
// answers its parent, the config loaded in a supervised child when it runs code, and the
// reply written out. Agent-neutral: the agent comes in as a HookAgent.
import { basename } from "node:path";
import type { HookAgent, HookHandler, HookReply } from "../model/hook.ts";
import { dieWithParent } from "../platform/parent-death.ts";
import { isTerminal, writeFd } from "../platform/stdio.ts";
import { mark } from "../util/trace.ts";
import { ISOLATED_ENV } from "./isolated-env.ts";
import { shadowedBySession } from "./session-hooks.ts";
import { readStdin } from "./stdin.ts";

/**
 * Answer one hook call of `agent`. `args`: the command's arguments after the agent's name;
 * `usage`: the command's usage line, for a person who typed it by hand.
 */
export async function answerHookCall(
  agent: HookAgent,
  args: readonly string[],
  ctx: { cwd: string; usage: string },
): Promise<number> {
  // The isolated child of a hook call (./isolated.ts) ends with its parent, whatever the
  // config's code does, and answers its parent only.
  await dieWithParent();
  const nonce = process.env[ISOLATED_ENV];
  if (nonce !== undefined) {
    delete process.env[ISOLATED_ENV]; // not for the config's code or the callbacks
    return answered(await answerAsChild(agent, nonce, await agent.hook(), ctx));
  }
  if (shadowedBySession(agent.name, args, process.env)) {
    await readStdin(); // the agent is writing it: take it, then say nothing
    return answered(emit({ json: agent.emptyJson }));
  }
  const { text, complete, problem } = await readStdin();
  mark("hook input read");
  if (!complete) {
    if (text === "" && isTerminal(0)) {
      writeFd(
        2,
        `cpilot: no hook input: this command reads the agent's hook JSON on stdin\nusage: ${ctx.usage}\n`,
      );
      return 0;
    }
    // Unread input: a pre-write call (or one that may be) is denied in the agent's form.
    const { unreadableInputReply } = await import("./unreadable-input.ts");
    return emit(unreadableInputReply(agent, text, problem ?? "Cannot read the hook input"));
  }
  const reply = await answerInProcess(agent, text, await agent.hook(), { ...ctx, args });
  mark("hook answered");
  return answered(emit(reply));
}

/**
 * Answer here when that runs none of the user's code; a config that would run code
 * (ConfigNeedsIsolation) is loaded in a supervised child instead, and when that child
 * cannot answer, the call is answered here as for a broken config.
 */
async function answerInProcess(
  agent: HookAgent,
  text: string,
  handle: HookHandler,
  ctx: { cwd: string; args: readonly string[] },
): Promise<HookReply> {
  const { setHookConfigMode, ConfigNeedsIsolation } = await import("./config.ts");
  setHookConfigMode({ kind: "isolate" });
  try {
    return await handle(text, { cwd: ctx.cwd, env: process.env, args: ctx.args });
  } catch (err) {
    if (!(err instanceof ConfigNeedsIsolation)) throw err;
    const { answerIsolated } = await import("./isolated.ts");
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
  agent: HookAgent,
  nonce: string,
  handle: HookHandler,
  ctx: { cwd: string },
): Promise<number> {
  const { reportLine } = await import("./isolated.ts");
  const { onHookConfigLoaded } = await import("./config.ts");
  const { text, complete, problem } = await readStdin();
  const { mayBePreWrite, sniffEvent } = await import("./unreadable-input.ts");
  if (!complete) {
    const { unreadableInputReply } = await import("./unreadable-input.ts");
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

/** Write a reply out: protocol JSON on stdout, text for people on stderr. Its exit code. */
function emit(reply: HookReply): number {
  if (reply.stderr) writeFd(2, `${reply.stderr}\n`);
  if (reply.json !== null) writeFd(1, `${JSON.stringify(reply.json)}\n`);
  return reply.exitCode ?? 0;
}

/**
 * Exit as soon as the answer is out: a TypeScript callback that ignores its abort signal
 * (a timer, an open handle) must not keep the agent's hook waiting after the reply.
 */
function answered(code: number): never {
  process.exit(code);
}
