import { MAX_TIMEOUT_S, NAME_PATTERN } from "../config/schema.ts";

export const TOOL_NAME = "save_callback";

export const TOOL_DESCRIPTION =
  "Save one cpilot callback: a command cpilot runs when an AI coding agent edits files matching its patterns.";

const ACTION = {
  action: {
    type: "string",
    enum: ["stop", "notify", "run"],
    description:
      '"stop" kills the run, "notify" tells the agent (with message), "run" starts the callback named in callback',
  },
  callback: { type: "string", description: 'For action "run": an existing callback name' },
  message: { type: "string", description: 'For action "notify": text shown before the output' },
} as const;

const hookList = (description: string, fields: Record<string, unknown>, required: string[]) => ({
  type: "array",
  description,
  items: {
    type: "object",
    properties: { ...fields, ...ACTION },
    required: [...required, "action"],
    additionalProperties: false,
  },
});

/**
 * The JSON-expressible part of `CallbackDef`: it guides the model, and `validateConfig`
 * decides afterwards (compiling the hook regexes and refusing unsafe ones). `cwd`, `env`
 * and `enabled` are left out: plain words rarely mean them. tests/add/schema.test.ts fails
 * when the config grows a key this lacks.
 */
export const CALLBACK_JSON_SCHEMA = {
  type: "object",
  properties: {
    name: {
      type: "string",
      pattern: NAME_PATTERN.source,
      description: "Unique slug: lowercase letters, digits, - and _, e.g. cargo-check",
    },
    description: { type: "string", description: "One short line saying what it checks" },
    pattern: {
      type: "array",
      items: { type: "string" },
      minItems: 1,
      description:
        'gitignore-style rules relative to the project root: "*.rs" matches at any depth, "src/**/*.ts" only under /src, "!rule" excludes',
    },
    run: {
      anyOf: [
        { type: "string", description: 'A bash command; the matched files arrive as "$@"' },
        {
          type: "array",
          items: { type: "string" },
          minItems: 1,
          description:
            'argv without a shell; "{files}" expands to the matched files, "{file}" to one (needs per "file")',
        },
      ],
    },
    blocking: {
      type: "boolean",
      description: "true: the agent waits for the result (default); false: runs in the background",
    },
    timeout: {
      type: "number",
      exclusiveMinimum: 0,
      maximum: MAX_TIMEOUT_S,
      description: "Seconds before the run is killed",
    },
    successMessage: {
      type: "string",
      description: 'Shown when it passes; "silent" shows nothing. Leave out for the default',
    },
    per: {
      type: "string",
      enum: ["batch", "file"],
      description: '"batch": one run for all edited files (default); "file": one run per file',
    },
    overlap: {
      type: "string",
      enum: ["queue", "replace", "parallel"],
      description:
        'When it is already running: "queue" waits (default), "replace" kills the old run (good for whole-project checks), "parallel" runs both',
    },
    onOutput: hookList(
      "Only when asked to react to output lines: a rule per JavaScript regex",
      {
        match: { type: "string", description: "JavaScript regex tested on each output line" },
        flags: { type: "string", description: 'Regex flags, e.g. "i"' },
        delay: {
          type: "number",
          description: "Seconds to keep collecting output after a match (default 2)",
        },
        maxFires: { type: "integer", description: "Fires per run at most (default 1)" },
      },
      ["match"],
    ),
    onExit: hookList(
      "Only when asked to react to the run ending",
      { when: { type: "string", enum: ["any", "success", "failure"] } },
      [],
    ),
    onTimeout: hookList(
      "Only when asked to react to a slow run (not the kill timeout)",
      { after: { type: "number", description: "Seconds after the run started; below timeout" } },
      ["after"],
    ),
    persist: {
      type: "boolean",
      description: "Only for non-blocking runs that must outlive the agent session (a dev server)",
    },
  },
  required: ["name", "description", "pattern", "run", "blocking", "timeout"],
  additionalProperties: false,
} as const;

/** Config keys the model schema leaves out on purpose (see above). */
// fixes and after: what a callback does to files, and its order among the others, come from
// the tool and the whole config, not from one request. format and report: the output's format
// is recognized from what the tool prints, and what the agent is shown is a project choice.
// cache: the safe default is decided from the command (src/cache/); a person turns it off.
// inputs: what a check reads besides its files is a promise only the person can make.
export const KEYS_NOT_ASKED = [
  "cwd",
  "env",
  "enabled",
  "fixes",
  "after",
  "format",
  "report",
  "cache",
  "inputs",
] as const;
