import { z } from "zod";
import { CpilotError } from "../util/errors.ts";
import { STATE, stateRelative } from "../util/state-layout.ts";
import type { GatePluginFunction } from "./gate-types.ts";

const pattern = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

/** One user rule; rules are read in order and the last one that matches a path wins. */
const ruleSchema = z.strictObject({
  action: z.enum(["allow", "deny", "ask"]),
  /** gitignore-style, relative to the project root; `!` negates. */
  pattern,
  /** Told to the model (deny) or the person (ask). */
  reason: z.string().optional(),
});

const commandPluginSchema = z.strictObject({
  /** argv (no shell) or a shell string run by `/bin/sh -c`. */
  command: z.union([z.string().min(1), z.array(z.string()).min(1)]),
  /** Seconds; default `pluginTimeout`. */
  timeout: z.number().positive().optional(),
  /** Shown in reasons and the log; default the command's first word. */
  name: z.string().min(1).optional(),
});

const functionPluginSchema = z.custom<GatePluginFunction>((value) => typeof value === "function", {
  message: "expected a function (write) => decision",
});

/** Built-in protections; each one can be turned off. */
const defaultsSchema = z.strictObject({
  /** Deny writes that resolve outside the project root. */
  outsideRoot: z.boolean().default(true),
  /** Deny writes that go through a symlink to somewhere outside the root. */
  symlinkEscape: z.boolean().default(true),
  /** Deny writes into any `.git` directory (case, Unicode and Windows look-alikes included). */
  git: z.boolean().default(true),
  /** Deny writes to `.env*` (not `.env.example`), private keys and similar secrets. */
  secrets: z.boolean().default(true),
  /** Deny writes into `.cpilot/` (the gate's log and plugins): an agent must not widen its own rights. */
  cpilotDir: z.boolean().default(true),
  /** Deny names over 255 bytes and paths over 4096 bytes. */
  longNames: z.boolean().default(true),
  /**
   * Deny writes to cpilot's config (`callbacks.config.*`, `callbacks.managed.json`) and the
   * agents' hook settings, at any depth; no rule can allow them. An agent that may ask a
   * person (Claude Code) asks instead.
   */
  configFiles: z.boolean().default(true),
  /** Allow the agent's own state folders outside the root (Claude Code's plans and todos). */
  agentState: z.boolean().default(true),
});

/** The `gate` section of the config. Unknown keys are rejected. */
export const gateConfigSchema = z.strictObject({
  defaults: defaultsSchema.default({
    outsideRoot: true,
    symlinkEscape: true,
    git: true,
    secrets: true,
    cpilotDir: true,
    longNames: true,
    configFiles: true,
    agentState: true,
  }),
  rules: z.array(ruleSchema).default([]),
  plugins: z.array(z.union([commandPluginSchema, functionPluginSchema])).default([]),
  /** Executables in this folder (relative to the root) run after `plugins`, sorted; false: none. */
  pluginsDir: z
    .union([z.string().min(1), z.literal(false)])
    .default(stateRelative(STATE.gatePlugins)),
  /** Seconds a plugin may take before it is killed and the write denied. */
  pluginTimeout: z.number().positive().default(5),
  /** What an `ask` rule does when no one can be asked (no terminal, or CI). */
  headless: z.enum(["deny", "allow", "rules-only"]).default("deny"),
  /** Seconds to wait for the person's answer on the terminal; no answer is no. */
  askTimeout: z.number().positive().default(120),
  /** Append every decision to `.cpilot/gate.log.jsonl`. */
  log: z.boolean().default(true),
});

/** The `gate` section as a user writes it. */
export type GateConfig = z.input<typeof gateConfigSchema>;
/** The `gate` section with every default filled in. */
export type ResolvedGateConfig = z.output<typeof gateConfigSchema>;
export type GateRule = z.output<typeof ruleSchema>;
export type CommandPlugin = z.output<typeof commandPluginSchema>;

/**
 * Validate a `gate` section and fill in defaults. Reports every problem at once.
 * Throws CpilotError.
 */
export function resolveGateConfig(config: GateConfig | undefined): ResolvedGateConfig {
  const parsed = gateConfigSchema.safeParse(config ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const key = ["gate", ...issue.path.map(String)].join(".");
    return `  ${key}: ${issue.message}`;
  });
  throw new CpilotError(
    `Cannot use the gate config: ${problems.length} problem(s)\n${problems.join("\n")}`,
    {
      hint: "see the gate section of the config docs for the expected shape",
    },
  );
}
