// One hook call from stdin to stdout: the input read (bounded), the agent's payload turned
// into a HookEvent (or the fail-closed answer), the config loaded (in a supervised child
// when it runs code), the event routed to its step, and the neutral answer put in the
// agent's reply form. Broken configs and internal errors are answered here, the same way
// for every agent; what differs per agent is its HookTranslator.
import { basename } from "node:path";
import type { ResolvedConfig } from "../config/resolve.ts";
import type {
  AgentProtocol,
  GateVerdict,
  HookAgent,
  HookAnswer,
  HookEvent,
  HookHandler,
  HookReply,
  StopVerdict,
} from "../model/hook.ts";
import { dieWithParent } from "../platform/parent-death.ts";
import { isTerminal, keepStdoutForProtocol, writeFd } from "../platform/stdio.ts";
import { fitAnswer, fitText } from "../ui/agent/fit-reply.ts";
import { CpilotError } from "../util/errors.ts";
import { mark } from "../util/trace.ts";
import { afterEdits, afterWrite } from "./after-edits.ts";
import {
  ConfigNeedsIsolation,
  configErrorForModel,
  emptyConfig,
  loadHookConfig,
  onHookConfigLoaded,
  setHookConfigMode,
} from "./config.ts";
import { gateFailedReason } from "./edit-gate.ts";
import { readStdin } from "./hook-input.ts";
import { ISOLATED_ENV } from "./isolated-env.ts";
import { SESSION_FLAG, SESSION_HOOKS_ENV } from "./session-hooks.ts";
import type { StopExtras } from "./stop-gate.ts";
import { mayBePreWrite, sniffEvent, unreadableInputReply } from "./unreadable-input.ts";

type HookCallOptions = Parameters<HookHandler>[1];

export type Parsed<I> = { ok: true; input: I } | { ok: false; error: string };

/** One agent's hook protocol mapped onto the pipeline: its payload in, its replies out. */
export interface HookTranslator<I> {
  /** The agent's name, as the callbacks' environment and the session's records know it. */
  readonly agent: string;
  readonly protocol: AgentProtocol;
  /** No output, or the agent's empty JSON. */
  readonly nothing: HookReply;
  /** For an agent that needs a verdict before every tool call, when cpilot has none to give. */
  readonly allow?: HookReply;
  parse(stdin: string, options: HookCallOptions): Parsed<I>;
  /** null when cpilot has nothing to do with the call. */
  event(input: I): HookEvent | null;
  /** How this event hands the model a text (a broken config); null when it cannot. */
  tell(input: I, event: HookEvent): ((text: string) => HookReply) | null;
  /** `config`: what the gate decided with, for a note left for the call's post-write. */
  gateReply(
    input: I,
    event: HookEvent,
    verdict: GateVerdict,
    config: ResolvedConfig,
  ): HookReply | Promise<HookReply>;
  /** After a tool call: a post-write's findings, or what a shell call changed. */
  afterTool(event: HookEvent, answer: HookAnswer): HookReply;
  /** null when the agent shows that event's reply to nobody (what waits stays waiting). */
  context(event: HookEvent): ((text: string) => HookReply) | null;
  stopReply(event: HookEvent, verdict: StopVerdict): HookReply;
  /** What the agent adds at its stop (Claude Code: its context updates). */
  stopExtras?(input: I, config: ResolvedConfig): Promise<StopExtras | null>;
  /** A batch-end event came (whether the agent sends them may depend on its version). */
  batchEndSeen?(root: string): void;
  batchEndFollows?(root: string, env: NodeJS.ProcessEnv): boolean;
  /** A call another agent made through these hooks (Cursor runs Claude Code's): its own hooks answer. */
  leftToOthers?(input: I, options: HookCallOptions): Promise<boolean>;
  /** Hook commands that are not calls of its events (a flag after its name), loaded on demand. */
  readonly modes?: Readonly<Record<string, () => Promise<HookHandler>>>;
}

/**
 * Never throws: a bad payload is denied when it may be a write; a config error reaches the
 * model once per session; an internal error is one line on stderr, never a stack in the
 * model's context, and a pre-write it stopped is denied: no verdict, no write.
 */
export function hookHandler<I>(t: HookTranslator<I>): HookHandler {
  return async (stdin, options) => {
    const mode = t.modes && options.args?.find((arg) => Object.hasOwn(t.modes ?? {}, arg));
    if (t.modes && mode)
      return (await (t.modes[mode] as () => Promise<HookHandler>)())(stdin, options);
    const parsed = t.parse(stdin, options);
    if (!parsed.ok) return unreadableInputReply(t.protocol, stdin, parsed.error);
    const { input } = parsed;
    if (t.leftToOthers && (await t.leftToOthers(input, options))) return t.nothing;
    const event = t.event(input);
    if (event === null) return t.nothing;
    const quiet = t.allow !== undefined && isBeforeTool(event) ? t.allow : t.nothing;
    const loaded = await loadHookConfig(event.cwd, event.written);
    if (loaded.kind === "none") return quiet; // cpilot is not set up in this project
    try {
      if (loaded.kind === "error") {
        const stderr = `cpilot: ${loaded.message}`;
        // The gate still decides, on its built-in protections (see emptyConfig).
        if (event.kind === "pre-write")
          return { ...(await route(t, input, event, await emptyConfig(loaded), options)), stderr };
        const tell = t.tell(input, event);
        const text =
          tell === null ? null : configErrorForModel(loaded.root, event.session, loaded.message);
        return { ...(tell === null || text === null ? quiet : tell(text)), stderr };
      }
      mark("config loaded");
      return await route(t, input, event, loaded.config, options);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const stderr = `cpilot: internal error in the ${event.name} hook (please report it): ${message}`;
      if (event.kind === "pre-write")
        return { json: t.protocol.denyForm(gateFailedReason(message)), stderr };
      return { ...quiet, stderr };
    }
  };
}

async function route<I>(
  t: HookTranslator<I>,
  input: I,
  event: HookEvent,
  config: ResolvedConfig,
  options: HookCallOptions,
): Promise<HookReply> {
  const at = { config, agent: t.agent, session: event.session };
  switch (event.kind) {
    case "pre-write": {
      const { gateEvent } = await import("./gate-all.ts");
      return t.gateReply(input, event, await gateEvent(t.protocol, config, event), config);
    }
    case "pre-tool":
      return t.allow ?? t.nothing;
    case "post-write": {
      const env = options.env;
      const batchEndFollows = () => t.batchEndFollows?.(config.root, env) ?? false;
      const { edits = [], cwd, callId, once, unheard } = event;
      const args = { ...at, cwd, edits, callId, once, unheard, batchEndFollows };
      const answer = await afterWrite(args);
      if (unheard === true) return t.nothing;
      if (event.shell !== true) return t.afterTool(event, fitAnswer(answer));
      // a patch sent through the shell may come with other commands that changed files
      const { shellEditsReport } = await import("./shell-check.ts");
      const more = await shellEditsReport({ ...at, command: event.command, seenFrom: cwd });
      const failures = [...more.failures, ...answer.failures];
      return t.afterTool(event, fitAnswer({ failures, info: [...more.info, ...answer.info] }));
    }
    case "post-tool": {
      if (event.shell !== true)
        return t.afterTool(event, fitAnswer(await afterEdits({ ...at, files: [] })));
      const { shellToolReport } = await import("./shell-check.ts");
      return t.afterTool(
        event,
        fitAnswer(await shellToolReport({ ...at, command: event.command, seenFrom: event.cwd })),
      );
    }
    case "stop": {
      const { shellStopGate } = await import("./shell-check.ts");
      const extras = t.stopExtras && (() => t.stopExtras?.(input, config) ?? Promise.resolve(null));
      const verdict = await shellStopGate({
        ...at,
        stopper: event.stopper,
        extras,
        seenFrom: event.cwd,
      });
      return t.stopReply(
        event,
        verdict.block ? { block: true, reason: fitText(verdict.reason) } : verdict,
      );
    }
    case "batch-end": {
      t.batchEndSeen?.(config.root);
      const { batchEnd } = await import("./batch-end.ts");
      const say = t.context(event);
      const text = fitText(await batchEnd(at, event));
      return say === null || text === "" ? t.nothing : say(text);
    }
    case "session-start":
    case "prompt": {
      const { sessionContext } = await import("./session-context.ts");
      const say = t.context(event);
      const text = fitText(await sessionContext(at, event, say !== null));
      return say === null || text === "" ? t.nothing : say(text);
    }
  }
}

const isBeforeTool = (event: HookEvent): boolean =>
  event.kind === "pre-write" || event.kind === "pre-tool";

/**
 * `cpilot hook <agent>`: each registry line loads its agent's folder on demand. Always
 * exits 0 with protocol JSON (or nothing): Claude Code drops exit 1 silently, and exit 2
 * in PostToolBatch ends the agent's loop.
 */
export async function hookCommand(
  args: readonly string[],
  ctx: { cwd: string },
  agents: Readonly<Record<string, () => Promise<HookAgent>>>,
): Promise<number> {
  // The agent parses stdout: a config's or a callback's console.log must not land there.
  keepStdoutForProtocol();
  const names = Object.keys(agents);
  const usage = `cpilot hook ${names.join("|")}   (reads the hook event JSON on stdin; the agent calls it)`;
  const [name, ...rest] = args;
  const load = name !== undefined && Object.hasOwn(agents, name) ? agents[name] : undefined;
  if (load === undefined) {
    throw new CpilotError(
      `Cannot answer hooks for "${name ?? ""}": cpilot knows ${names.join(", ")}`,
      { hint: `usage: ${usage}` },
    );
  }
  return answerHookCall(await load(), rest, { cwd: ctx.cwd, usage });
}

/** `usage`: for a person who typed it by hand. */
export async function answerHookCall(
  agent: HookAgent,
  args: readonly string[],
  ctx: { cwd: string; usage: string },
): Promise<number> {
  // The isolated child ends with its parent, whatever the config's code does.
  await dieWithParent();
  const nonce = process.env[ISOLATED_ENV];
  if (nonce !== undefined) {
    delete process.env[ISOLATED_ENV]; // not for the config's code or the callbacks
    return answered(await answerAsChild(agent, nonce, await agent.hook(), ctx));
  }
  // Inside a `cpilot run` that gave the agent session hooks, those answer this call.
  if (process.env[SESSION_HOOKS_ENV] === agent.name && !args.includes(SESSION_FLAG)) {
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
    return emit(unreadableInputReply(agent, text, problem ?? "Cannot read the hook input"));
  }
  const reply = await answerInProcess(agent, text, await agent.hook(), { ...ctx, args });
  mark("hook answered");
  return answered(emit(reply));
}

/** A config that runs code loads in a supervised child; if that fails, as for a broken config. */
async function answerInProcess(
  agent: HookAgent,
  text: string,
  handle: HookHandler,
  ctx: { cwd: string; args: readonly string[] },
): Promise<HookReply> {
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

/** Tells the parent once the config loaded (and its gate plugins' timeouts), then replies. */
async function answerAsChild(
  agent: HookAgent,
  nonce: string,
  handle: HookHandler,
  ctx: { cwd: string },
): Promise<number> {
  const { reportLine } = await import("./isolated.ts");
  const { text, complete, problem } = await readStdin();
  if (!complete) {
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

/** Protocol JSON on stdout, text for people on stderr. */
function emit(reply: HookReply): number {
  if (reply.stderr) writeFd(2, `${reply.stderr}\n`);
  if (reply.json !== null) writeFd(1, `${JSON.stringify(reply.json)}\n`);
  return reply.exitCode ?? 0;
}

/** A callback that ignores its abort signal (a timer, an open handle) must not keep the agent waiting. */
function answered(code: number): never {
  process.exit(code);
}
