import { basename } from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { type ManagedCallback, readManaged } from "../../config/managed.ts";
import {
  dropProposal,
  findProposal,
  isDeletion,
  type Proposal,
  propose,
} from "../../config/proposals.ts";
import { managedNames } from "../callback-table.ts";
import { applyEdits } from "../edits.ts";
import { describeEditFailure } from "../nearest.ts";
import type { ToolContext } from "../tool-context.ts";
import { unusable } from "./callback-list.ts";

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
  old_string: z
    .string()
    .optional()
    .describe("With new_string, instead of run: the exact text of the current script to replace"),
  new_string: z.string().optional().describe("What old_string becomes"),
  replace_all: z.boolean().optional().describe("Replace every match of old_string"),
};

type Fields = { [K in keyof typeof fields]?: z.infer<(typeof fields)[K]> };
type CallbackFields = Omit<Fields, "old_string" | "new_string" | "replace_all">;

const KEYS: Record<keyof CallbackFields, keyof ManagedCallback> = {
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

/** A value sets the key, null removes it. */
function merge(base: Record<string, unknown>, input: CallbackFields): Record<string, unknown> {
  const next = { ...base };
  for (const [field, key] of Object.entries(KEYS) as [keyof CallbackFields, string][]) {
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

/** The script after old_string/new_string, or why it cannot be edited that way. */
function editScript(
  name: string,
  base: Record<string, unknown> | undefined,
  input: Fields,
): { run: string } | { error: string } | null {
  if (input.old_string === undefined && input.new_string === undefined) return null;
  if (input.run !== undefined) {
    return {
      error: `Cannot update callback "${name}": give run or old_string/new_string, not both\nhint: old_string/new_string edit the current script; run replaces it`,
    };
  }
  if (input.old_string === undefined || input.new_string === undefined) {
    return {
      error: `Cannot update callback "${name}": old_string needs new_string and the other way round`,
    };
  }
  const script = base?.run;
  if (typeof script !== "string") {
    return {
      error: `Cannot edit the script of callback "${name}": ${base === undefined ? "there is none" : "its run is an argv array, not a script"}\nhint: pass run with the whole new value`,
    };
  }
  const edit = {
    oldString: input.old_string,
    newString: input.new_string,
    ...(input.replace_all === true ? { replaceAll: true } : {}),
  };
  const out = applyEdits(script, [edit]);
  if (!out.ok) return { error: describeEditFailure(out.failure, `${name}'s script`, [edit]) };
  return { run: out.text };
}

const PENDING =
  "It does not run until the person approves it: they run `cpilot approve NAME` (or accept the change to callbacks.managed.json in review).";

/** A proposal runs nowhere until the person approves it. */
export function registerCallbackUpsert(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "callback_upsert",
    {
      description:
        "Propose a callback to create, update or delete: a check that runs when matching files are edited " +
        "(build, lint, tests, a formatter, any script). A proposal waits in callbacks.managed.json for the " +
        "person to approve it (`cpilot approve NAME`) and runs nowhere until then; a callback already " +
        "approved keeps running as it was meanwhile. The ones in callbacks.config.ts are changed by hand only. " +
        "create needs name, pattern, run (and timeout when blocking); update changes only the fields given " +
        "(null removes one), and edits the current script with old_string/new_string; delete needs only name.",
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
      const pending = PENDING.replace("NAME", name);
      try {
        const approved = readManaged(root).find((c) => (c as { name?: unknown })?.name === name) as
          | Record<string, unknown>
          | undefined;
        const proposal = findProposal(root, name);
        const proposed = proposal === undefined || isDeletion(proposal) ? undefined : proposal;
        if (action === "delete") {
          if (approved === undefined) {
            if (!dropProposal(root, name))
              return ctx.reply(
                `Cannot delete callback "${name}": there is none by that name`,
                true,
              );
            return ctx.reply(`Withdrew the proposal "${name}": it never ran.`);
          }
          propose(root, { name, delete: true }, configNames);
          return ctx.reply(
            `Proposed deleting callback "${name}". ${pending} It keeps running until then.`,
          );
        }
        const current = (proposed ?? approved) as Record<string, unknown> | undefined;
        if (action === "create" && current !== undefined) {
          return ctx.reply(
            `Cannot create callback "${name}": it exists${proposed === undefined ? "" : " (as your proposal)"}\nhint: use action "update"`,
            true,
          );
        }
        if (action === "update" && current === undefined) {
          return ctx.reply(
            `Cannot update callback "${name}": there is none by that name\nhint: use action "create"`,
            true,
          );
        }
        const script = editScript(name, current, input);
        if (script !== null && "error" in script) return ctx.reply(script.error, true);
        const { old_string: _old, new_string: _new, replace_all: _all, ...rest } = input;
        const fieldsGiven: CallbackFields = script === null ? rest : { ...rest, run: script.run };
        const next = merge(current ?? { name }, fieldsGiven) as unknown as ManagedCallback;
        next.name = name;
        propose(root, next as Proposal, configNames);
        const meanwhile =
          approved === undefined
            ? "Nothing runs meanwhile."
            : "The approved version keeps running meanwhile.";
        return ctx.reply(
          `Proposed ${approved === undefined ? "new" : "changed"} callback "${name}" (${describe(next as unknown as Record<string, unknown>)}), pending approval. ${pending} ${meanwhile}`,
        );
      } catch (err) {
        const hint = (err as { hint?: unknown }).hint;
        return ctx.reply(
          `${(err as Error).message}${typeof hint === "string" ? `\nhint: ${hint}` : ""}`,
          true,
        );
      }
    },
  );
}
