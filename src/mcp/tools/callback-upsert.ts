import { basename } from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import {
  deleteManaged,
  type ManagedCallback,
  readManaged,
  upsertManaged,
} from "../../config/managed.ts";
import { readToggles, writeToggles } from "../../config/state.ts";
import type { ToolContext } from "../tool-context.ts";
import { managedNames, unusable } from "./callback-list.ts";

const fields = {
  description: z.string().nullable().optional().describe("What it checks, in a few words"),
  pattern: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe(
      'gitignore-style patterns of the files it runs for, e.g. "*.ts" or ["src/**/*.py", "!**/gen/"]',
    ),
  run: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe(
      "A bash script (changed files arrive in $CP_CHANGED_FILES, newline-separated) or an argv array where {file}/{files} expand to the files",
    ),
  blocking: z
    .boolean()
    .optional()
    .describe("Finish before the edit's result returns (default true)"),
  timeout: z.number().positive().nullable().optional().describe("Seconds; required when blocking"),
  success_message: z
    .string()
    .nullable()
    .optional()
    .describe('Shown on success; "silent" shows nothing'),
  cwd: z.string().nullable().optional().describe("Working directory, relative to the project root"),
  env: z.record(z.string(), z.string()).nullable().optional(),
  per: z
    .enum(["batch", "file"])
    .nullable()
    .optional()
    .describe("One run per batch of edits (default) or per file"),
  overlap: z
    .enum(["queue", "replace", "parallel"])
    .nullable()
    .optional()
    .describe("When it is already running"),
  enabled: z.boolean().nullable().optional(),
};

type Fields = { [K in keyof typeof fields]?: z.infer<(typeof fields)[K]> };

const KEYS: Record<keyof Fields, keyof ManagedCallback> = {
  description: "description",
  pattern: "pattern",
  run: "run",
  blocking: "blocking",
  timeout: "timeout",
  success_message: "successMessage",
  cwd: "cwd",
  env: "env",
  per: "per",
  overlap: "overlap",
  enabled: "enabled",
};

/** Apply the given fields to a stored callback: a value sets the key, null removes it. */
function merge(base: Record<string, unknown>, input: Fields): Record<string, unknown> {
  const next = { ...base };
  for (const [field, key] of Object.entries(KEYS) as [keyof Fields, string][]) {
    const value = input[field];
    if (value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

function describe(cb: Record<string, unknown>): string {
  const pattern = Array.isArray(cb.pattern) ? cb.pattern.join(" ") : String(cb.pattern);
  const blocking =
    cb.blocking === false ? "non-blocking" : `blocking, timeout ${String(cb.timeout ?? "?")} s`;
  return `runs on ${pattern}; ${blocking}`;
}

/** callback_upsert: create, update or delete a callback in callbacks.managed.json. */
export function registerCallbackUpsert(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "callback_upsert",
    {
      description:
        "Create, update or delete a callback: a check that runs when matching files are edited " +
        "(build, lint, tests, a formatter, any script). Callbacks made here live in callbacks.managed.json " +
        "beside the config, for the user to review; the ones in callbacks.config.ts are changed by hand only. " +
        "create needs name, pattern, run (and timeout when blocking); update changes only the fields given " +
        "(null removes one); delete needs only name.",
      inputSchema: {
        action: z.enum(["create", "update", "delete"]),
        name: z.string().describe("Slug: lowercase letters, digits, - and _"),
        ...fields,
      },
    },
    async ({ action, name, ...input }) => {
      const state = await ctx.project.load();
      const problem = unusable(state);
      if (problem !== null || state.kind !== "ok") return ctx.reply(problem ?? "", true);
      const root = state.config.root;
      const managed = managedNames(root);
      const configNames = state.config.callbacks.map((c) => c.name).filter((n) => !managed.has(n));
      if (configNames.includes(name)) {
        return ctx.reply(
          `Cannot ${action} callback "${name}": it is defined in ${basename(state.config.path) || "the config"}, which only people edit\nhint: ask the user to change it, or use another name`,
          true,
        );
      }
      let previous: Record<string, unknown> | undefined;
      let saved: string;
      try {
        previous = readManaged(root).find((c) => (c as { name?: unknown })?.name === name) as
          | Record<string, unknown>
          | undefined;
        if (action === "delete") {
          if (!deleteManaged(root, name)) {
            return ctx.reply(`Cannot delete callback "${name}": there is none by that name`, true);
          }
          saved = `Deleted callback "${name}" from callbacks.managed.json`;
        } else {
          if (action === "create" && previous !== undefined) {
            return ctx.reply(
              `Cannot create callback "${name}": it exists\nhint: use action "update"`,
              true,
            );
          }
          if (action === "update" && previous === undefined) {
            return ctx.reply(
              `Cannot update callback "${name}": there is none by that name\nhint: use action "create"`,
              true,
            );
          }
          const next = merge(previous ?? { name }, input as Fields) as unknown as ManagedCallback;
          next.name = name;
          upsertManaged(root, next, configNames);
          saved = `${action === "create" ? "Created" : "Updated"} callback "${name}" in callbacks.managed.json: ${describe(next as unknown as Record<string, unknown>)}`;
          if (action === "create") {
            const toggles = readToggles(root);
            if (toggles.disabled.includes(name)) {
              toggles.disabled = toggles.disabled.filter((n) => n !== name);
              writeToggles(root, toggles);
            }
          }
        }
      } catch (err) {
        const hint = (err as { hint?: unknown }).hint;
        return ctx.reply(
          `${(err as Error).message}${typeof hint === "string" ? `\nhint: ${hint}` : ""}`,
          true,
        );
      }
      const after = await ctx.project.load();
      if (after.kind === "broken") {
        if (previous === undefined) deleteManaged(root, name);
        else upsertManaged(root, previous as unknown as ManagedCallback, configNames);
        await ctx.project.load();
        return ctx.reply(
          `Cannot ${action} callback "${name}": the config would not load with it, so nothing changed:\n${after.error}`,
          true,
        );
      }
      return ctx.reply(saved);
    },
  );
}
