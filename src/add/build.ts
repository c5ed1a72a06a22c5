import type { ManagedCallback } from "../config/managed.ts";
import { CpilotError } from "../util/errors.ts";
import { askAnthropic } from "./anthropic.ts";
import type { ProjectContext } from "./context.ts";
import { ModelError } from "./model-error.ts";
import { askOpenAI } from "./openai.ts";
import { buildRequest, buildRetry, type ModelRequest } from "./prompt.ts";
import type { NoProvider, ProviderConfig } from "./provider.ts";
import { checkReply } from "./reply.ts";
import { buildFromRules } from "./rules/index.ts";

/** Where a built callback came from: a model, or the rules (and why no model answered). */
export type Via =
  | {
      readonly kind: "model";
      readonly provider: string;
      readonly model: string;
      readonly attempts: number;
    }
  | { readonly kind: "rules"; readonly why: string };

export interface Built {
  readonly callback: ManagedCallback;
  readonly via: Via;
  /** What the rules assumed, for the person to check. Empty for model results. */
  readonly notes: readonly string[];
}

export interface BuildOptions {
  readonly words: string;
  readonly root: string;
  readonly context: ProjectContext;
  readonly provider: ProviderConfig | NoProvider;
  /** Callbacks a hook's "run" may name (the managed file is validated on its own when it loads and saves). */
  readonly hookTargets?: readonly string[];
  readonly signal?: AbortSignal;
  /** For people ("asking claude-haiku-4-5 …"). */
  readonly progress?: (line: string) => void;
}

function ask(
  provider: ProviderConfig,
  request: ModelRequest,
  signal?: AbortSignal,
): Promise<unknown> {
  return provider.provider === "anthropic"
    ? askAnthropic(provider, request, signal)
    : askOpenAI(provider, request, signal);
}

/**
 * A reply unusable as a callback (not JSON, no tool call, fails validation) is asked once
 * more with every problem fed back; transport failures are not retried.
 */
async function fromModel(
  provider: ProviderConfig,
  options: BuildOptions,
): Promise<{ ok: true; callback: ManagedCallback; attempts: number } | { ok: false; why: string }> {
  const first = buildRequest(options.words, options.context);
  let request = first;
  for (let attempt = 1; attempt <= 2; attempt++) {
    let problems: string[];
    let reply: unknown;
    try {
      reply = await ask(provider, request, options.signal);
      const check = checkReply(reply, options.root, options.hookTargets);
      if (check.ok) return { ok: true, callback: check.callback, attempts: attempt };
      problems = check.problems;
    } catch (err) {
      if (!(err instanceof ModelError)) throw err;
      if (err.kind === "transport") return { ok: false, why: `${provider.model}: ${err.message}` };
      problems = [err.message];
      reply = err.reply;
    }
    if (attempt === 2) {
      return {
        ok: false,
        why: `${provider.model}: the reply was unusable twice (${problems.join("; ")})`,
      };
    }
    options.progress?.(`the reply was unusable (${problems.join("; ")}); asking once more`);
    request = buildRetry(first, reply, problems);
  }
  return { ok: false, why: "unreachable" };
}

/**
 * The model when one is configured, else (or when it gives nothing usable) the rules; both
 * pass the same checks as a config file. Throws a CpilotError when neither can build one.
 */
export async function buildCallback(options: BuildOptions): Promise<Built> {
  let why: string;
  if ("none" in options.provider) {
    why = options.provider.none;
  } else {
    const provider = options.provider;
    options.progress?.(`asking ${provider.model} (${provider.provider}, ${provider.baseUrl})`);
    const result = await fromModel(provider, options);
    if (options.signal?.aborted) {
      throw new CpilotError("Cannot build a callback: interrupted", {
        hint: "nothing was saved",
        exitCode: 130,
      });
    }
    if (result.ok) {
      return {
        callback: result.callback,
        via: {
          kind: "model",
          provider: provider.provider,
          model: provider.model,
          attempts: result.attempts,
        },
        notes: [],
      };
    }
    why = result.why;
    options.progress?.(`no usable answer from the model: ${why}`);
  }
  const rules = buildFromRules(options.words, { ...options.context, root: options.root });
  if (!rules.ok) {
    throw new CpilotError(`Cannot build a callback: ${rules.problem}`, {
      hint: `${rules.hint}\n(no model was used: ${why})`,
    });
  }
  const check = checkReply(rules.callback, options.root, options.hookTargets);
  if (!check.ok) {
    throw new CpilotError(
      `Cannot build a callback from "${options.words}": ${check.problems.join("; ")}`,
      {
        hint: `rephrase the request, or write the callback in callbacks.config.ts (no model was used: ${why})`,
      },
    );
  }
  return { callback: check.callback, via: { kind: "rules", why }, notes: rules.notes };
}
