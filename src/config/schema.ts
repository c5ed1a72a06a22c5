import { z } from "zod";
import { FORMAT_NAMES } from "../model/diagnostic-formats.ts";
import { gateConfigSchema } from "../model/gate-schema.ts";

/** Callback names appear in file names, env vars and commands. */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** A day: longer is almost surely a unit mistake. */
export const MAX_TIMEOUT_S = 86_400;

const nonEmpty = z.string().min(1, "expected a non-empty string");

const triggerAction = z.union([
  z.enum(["stop", "notify", "run"]),
  z.custom<(...args: never[]) => unknown>((v) => typeof v === "function"),
]);

const triggerFields = {
  action: triggerAction,
  /** Checked against the callback names in ./validate.ts. */
  callback: z.string().regex(NAME_PATTERN, "expected a callback name").optional(),
  message: z.string().optional(),
};

function oneOrMany<T extends z.ZodType>(rule: T) {
  return z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(rule));
}

const outputTriggerSchema = z
  .object({
    ...triggerFields,
    match: z.union([nonEmpty, z.instanceof(RegExp)]),
    flags: z
      .string()
      .regex(/^[imsuv]*$/, "expected regex flags from i, m, s, u, v")
      .optional(),
    delay: z.number().min(0, "expected seconds >= 0").max(3600).optional(),
    maxFires: z.number().int().min(1).max(10_000).optional(),
  })
  .strict();

const exitHookSchema = z
  .object({ ...triggerFields, when: z.enum(["any", "success", "failure"]).optional() })
  .strict();

const timeoutTriggerSchema = z
  .object({
    ...triggerFields,
    after: z.number().positive("expected seconds > 0").max(MAX_TIMEOUT_S),
  })
  .strict();

const callbackSchema = z
  .object({
    name: z.string().regex(NAME_PATTERN, "expected a slug: lowercase letters, digits, - and _"),
    description: z.string().optional(),
    pattern: z.union([nonEmpty, z.array(nonEmpty).min(1, "expected at least one pattern")]),
    run: z.union([
      nonEmpty,
      z.array(z.string()).min(1, "expected a command and its arguments"),
      z.custom<(...args: never[]) => unknown>((v) => typeof v === "function"),
    ]),
    blocking: z.boolean().optional(),
    timeout: z.number().positive("expected seconds > 0").max(MAX_TIMEOUT_S).optional(),
    successMessage: z.string().optional(),
    cwd: nonEmpty.optional(),
    env: z.record(z.string(), z.string()).optional(),
    per: z.enum(["batch", "file"]).optional(),
    overlap: z.enum(["queue", "replace", "parallel"]).optional(),
    enabled: z.boolean().optional(),
    onOutput: oneOrMany(outputTriggerSchema).optional(),
    onExit: oneOrMany(exitHookSchema).optional(),
    onTimeout: oneOrMany(timeoutTriggerSchema).optional(),
    persist: z.boolean().optional(),
    fixes: z.boolean().optional(),
    after: z.array(z.string().regex(NAME_PATTERN, "expected a callback name")).optional(),
    format: z.enum(FORMAT_NAMES).optional(),
    report: z.enum(["new", "all"]).optional(),
    cache: z.boolean().optional(),
    inputs: z.union([nonEmpty, z.array(z.string())]).optional(),
  })
  .strict();

const triggerLimitsSchema = z
  .object({
    maxDepth: z.number().int().min(0).max(20).optional(),
    maxConcurrent: z.number().int().min(1).max(64).optional(),
    sessionBudget: z.number().int().min(0).max(100_000).optional(),
  })
  .strict();

const agentSchema = z
  .object({
    maxStopBlocks: z.number().int().min(0).max(100).optional(),
    announceCallbacks: z.boolean().optional(),
    tailLines: z.number().int().min(1).max(200).optional(),
  })
  .strict();

export const configSchema = z
  .object({
    callbacks: z.array(callbackSchema),
    concurrency: z.number().int().min(1).max(256).optional(),
    keepLogs: z.number().int().min(1).max(100_000).optional(),
    triggerLimits: triggerLimitsSchema.optional(),
    /** The old name of triggerLimits, still read. */
    hookLimits: triggerLimitsSchema.optional(),
    resync: z.enum(["batch", "tree"]).optional(),
    gate: gateConfigSchema.optional(),
    context: z
      .object({
        dir: nonEmpty.optional(),
        files: z.array(nonEmpty).optional(),
      })
      .strict()
      .optional(),
    agent: agentSchema.optional(),
    stageFixed: z.boolean().optional(),
    failOnChange: z.enum(["ci", "always", "never"]).optional(),
    hideUntracked: z.boolean().optional(),
  })
  .strict();

export type ConfigInput = z.input<typeof configSchema>;
