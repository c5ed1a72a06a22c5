// The skeleton of every agent's hook handler, in one place: the payload parsed (or, when it
// cannot be, the fail-closed answer), the call routed as a HookEvent, the project's config
// loaded, then the agent's answer; a config that does not load and an internal error are
// answered here, the same way for every agent. What differs per agent is its HookTranslator.
import type { ResolvedConfig } from "../config/resolve.ts";
import type { AgentProtocol, HookEvent, HookHandler, HookReply } from "../model/hook.ts";
import { mark } from "../util/trace.ts";
import { configErrorForModel, emptyConfig, loadHookConfig } from "./config.ts";
import { gateFailedReason } from "./edit-gate.ts";
import { unreadableInputReply } from "./unreadable-input.ts";

type HookCallOptions = Parameters<HookHandler>[1];

/** An agent's payload read: its input, or why it cannot be read. */
export type Parsed<I> = { ok: true; input: I } | { ok: false; error: string };

/** How one agent's hook protocol maps onto the pipeline: its payload in, its replies out. */
export interface HookTranslator<I> {
  readonly protocol: AgentProtocol;
  /** The reply when there is nothing to say (no output, or the agent's empty JSON). */
  readonly nothing: HookReply;
  /**
   * For an agent whose hook must give a verdict before every tool call: the reply that lets
   * the call go on, where the pipeline has nothing to say before a tool runs (cpilot is not
   * set up, the config does not load, or an internal error stopped a call that writes nothing).
   */
  readonly allow?: HookReply;
  parse(stdin: string, options: HookCallOptions): Parsed<I>;
  /** The call as a HookEvent; null when cpilot has nothing to do with it (no config is loaded). */
  event(input: I): HookEvent | null;
  /** The answer with the project's config; for a pre-write, a stand-in when the config did not load. */
  answer(
    input: I,
    event: HookEvent,
    config: ResolvedConfig,
    options: HookCallOptions,
  ): Promise<HookReply>;
  /** How this event hands the model a text (a config that does not load); null when it cannot. */
  tell(input: I, event: HookEvent): ((text: string) => HookReply) | null;
}

/**
 * The agent's handler, built from its translator. Never throws: a bad payload is denied
 * when it may be a write (see ./unreadable-input.ts); a config error reaches the model once
 * per session (then only stderr); an internal error is one line on stderr, never a stack in
 * the model's context, and a pre-write call it stopped is denied: no verdict, no write.
 */
export function hookHandler<I>(t: HookTranslator<I>): HookHandler {
  return async (stdin, options) => {
    const parsed = t.parse(stdin, options);
    if (!parsed.ok) return unreadableInputReply(t.protocol, stdin, parsed.error);
    const { input } = parsed;
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
          return { ...(await t.answer(input, event, await emptyConfig(loaded), options)), stderr };
        const tell = t.tell(input, event);
        const text =
          tell === null ? null : configErrorForModel(loaded.root, event.session, loaded.message);
        return { ...(tell === null || text === null ? quiet : tell(text)), stderr };
      }
      mark("config loaded");
      return await t.answer(input, event, loaded.config, options);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const stderr = `cpilot: internal error in the ${event.name} hook (please report it): ${message}`;
      if (event.kind === "pre-write")
        return { json: t.protocol.denyForm(gateFailedReason(message)), stderr };
      return { ...quiet, stderr };
    }
  };
}

const isBeforeTool = (event: HookEvent): boolean =>
  event.kind === "pre-write" || event.kind === "pre-tool";
