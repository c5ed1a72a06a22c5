import { z } from "zod";
import { CpilotError } from "../util/errors.ts";
import { STATE, stateRelative } from "../util/state-layout.ts";
import type { GatePluginFunction } from "./gate-types.ts";

const pattern = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

/** Rules are read in order; the last one that matches a path wins. */
const ruleSchema = z.strictObject({
  action: z.enum(["allow", "deny", "ask"]),
  pattern,
  /** Told to the model (deny) or the person (ask). */
  reason: z.string().optional(),
});

const commandPluginSchema = z.strictObject({
  /** argv (no shell) or a shell string run by `/bin/sh -c`. */
  command: z.union([z.string().min(1), z.array(z.string()).min(1)]),
  timeout: z.number().positive().optional(),
  name: z.string().min(1).optional(),
});

const functionPluginSchema = z.custom<GatePluginFunction>((value) => typeof value === "function", {
  message: "expected a function (write) => decision",
});

const defaultsSchema = z.strictObject({
  outsideRoot: z.boolean().default(true),
  symlinkEscape: z.boolean().default(true),
  /** Case, Unicode and Windows look-alikes of `.git` included. */
  git: z.boolean().default(true),
  /** `.env*` (not `.env.example`), private keys and similar. */
  secrets: z.boolean().default(true),
  /** An agent must not widen its own rights through the gate's log and plugins. */
  cpilotDir: z.boolean().default(true),
  /** Deny names over 255 bytes and paths over 4096 bytes. */
  longNames: z.boolean().default(true),
  /** cpilot's config and the agents' hook settings, at any depth; no rule can allow them. An agent that can ask a person asks. */
  configFiles: z.boolean().default(true),
  /** The agent's own state folders outside the root (Claude Code's plans and todos). */
  agentState: z.boolean().default(true),
});

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
  /** Executables run after `plugins`, sorted; false: none. */
  pluginsDir: z
    .union([z.string().min(1), z.literal(false)])
    .default(stateRelative(STATE.gatePlugins)),
  /** A plugin past it is killed and the write denied. */
  pluginTimeout: z.number().positive().default(5),
  /** What an `ask` rule does when no one can be asked (no terminal, or CI). */
  headless: z.enum(["deny", "allow", "rules-only"]).default("deny"),
  /** No answer is no. */
  askTimeout: z.number().positive().default(120),
  log: z.boolean().default(true),
});

export type GateConfig = z.input<typeof gateConfigSchema>;
export type ResolvedGateConfig = z.output<typeof gateConfigSchema>;
export type GateRule = z.output<typeof ruleSchema>;
export type CommandPlugin = z.output<typeof commandPluginSchema>;

/** Reports every problem at once; throws CpilotError. */
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
