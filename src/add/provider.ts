import { CpilotError } from "../util/errors.ts";

/**
 * Which model `cpilot add` asks, from the environment and command-line overrides.
 *
 * | env | meaning | default |
 * |---|---|---|
 * | `CPILOT_MODEL_PROVIDER` | `anthropic`, `openai` (any OpenAI-compatible chat completions API) or `none` | from the key found |
 * | `CPILOT_MODEL_BASE_URL` | API root (`…/v1` for OpenAI-compatible) | the provider's public API |
 * | `CPILOT_MODEL` | model name | `claude-haiku-4-5` / `gpt-4o-mini` |
 * | `CPILOT_MODEL_API_KEY` | key for either provider | `ANTHROPIC_API_KEY` / `OPENAI_API_KEY` |
 * | `CPILOT_MODEL_TIMEOUT` | seconds per request | 20 |
 */
export type ProviderName = "anthropic" | "openai";

export interface ProviderConfig {
  readonly provider: ProviderName;
  readonly baseUrl: string;
  readonly model: string;
  /** Empty for a keyless local OpenAI-compatible server. */
  readonly apiKey: string;
  readonly timeoutMs: number;
}

export interface ProviderOverrides {
  provider?: string | undefined;
  baseUrl?: string | undefined;
  model?: string | undefined;
  timeoutS?: string | undefined;
  offline?: boolean | undefined;
}

export const DEFAULTS = {
  anthropic: { baseUrl: "https://api.anthropic.com", model: "claude-haiku-4-5" },
  openai: { baseUrl: "https://api.openai.com/v1", model: "gpt-4o-mini" },
} as const;

export const DEFAULT_TIMEOUT_S = 20;

/** Shown beside a result built from the rules. */
export type NoProvider = { readonly none: string };

type Env = Record<string, string | undefined>;

const set = (v: string | undefined): string | undefined =>
  v === undefined || v.trim() === "" ? undefined : v.trim();

function parseTimeout(raw: string | undefined, from: string): number {
  if (raw === undefined) return DEFAULT_TIMEOUT_S * 1000;
  const s = Number(raw);
  if (!Number.isFinite(s) || s <= 0 || s > 600) {
    throw new CpilotError(`Cannot use ${from} "${raw}": expected seconds between 0 and 600`, {
      hint: `e.g. ${from}=${DEFAULT_TIMEOUT_S}`,
    });
  }
  return Math.round(s * 1000);
}

function parseProvider(raw: string, from: string): ProviderName | "none" {
  const v = raw.toLowerCase();
  if (v === "anthropic" || v === "openai" || v === "none") return v;
  throw new CpilotError(`Cannot use ${from} "${raw}": unknown provider`, {
    hint: "use anthropic, openai (any OpenAI-compatible endpoint) or none",
  });
}

/** A keyless OpenAI-compatible endpoint (a local server) is allowed when its base URL is given. */
export function resolveProvider(
  env: Env = process.env,
  overrides: ProviderOverrides = {},
): ProviderConfig | NoProvider {
  if (overrides.offline) return { none: "--offline was given" };
  const timeoutMs =
    overrides.timeoutS !== undefined
      ? parseTimeout(overrides.timeoutS, "--model-timeout")
      : parseTimeout(set(env.CPILOT_MODEL_TIMEOUT), "CPILOT_MODEL_TIMEOUT");
  const rawProvider = set(overrides.provider) ?? set(env.CPILOT_MODEL_PROVIDER);
  const from = set(overrides.provider) ? "--provider" : "CPILOT_MODEL_PROVIDER";
  const chosen = rawProvider === undefined ? undefined : parseProvider(rawProvider, from);
  if (chosen === "none") return { none: `${from} is none` };
  const anthropicKey = set(env.ANTHROPIC_API_KEY);
  const openaiKey = set(env.OPENAI_API_KEY);
  const ownKey = set(env.CPILOT_MODEL_API_KEY);
  const provider: ProviderName | undefined =
    chosen ?? (ownKey || anthropicKey ? "anthropic" : openaiKey ? "openai" : undefined);
  if (provider === undefined) {
    return { none: "no API key: set ANTHROPIC_API_KEY, OPENAI_API_KEY or CPILOT_MODEL_API_KEY" };
  }
  const explicitBase =
    set(overrides.baseUrl) ??
    set(env.CPILOT_MODEL_BASE_URL) ??
    set(provider === "anthropic" ? env.ANTHROPIC_BASE_URL : env.OPENAI_BASE_URL);
  const apiKey = ownKey ?? (provider === "anthropic" ? anthropicKey : openaiKey) ?? "";
  if (apiKey === "" && !(provider === "openai" && explicitBase !== undefined)) {
    const name = provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
    return { none: `no API key for ${provider}: set ${name} or CPILOT_MODEL_API_KEY` };
  }
  const baseUrl = (explicitBase ?? DEFAULTS[provider].baseUrl).replace(/\/+$/, "");
  try {
    new URL(baseUrl);
  } catch {
    throw new CpilotError(`Cannot use model base URL "${baseUrl}": not a URL`, {
      hint: "e.g. CPILOT_MODEL_BASE_URL=http://127.0.0.1:11434/v1",
    });
  }
  const model = set(overrides.model) ?? set(env.CPILOT_MODEL) ?? DEFAULTS[provider].model;
  return { provider, baseUrl, model, apiKey, timeoutMs };
}
