import type { ManagedCallback } from "../../config/managed.ts";
import { blank, type Span } from "./_spans.ts";
import { explicitCommands, type Found, fromIntents, type RulesProject, slug } from "./commands.ts";
import { readFiles } from "./files.ts";
import { readOptions, readQuoted, readSuccess } from "./options.ts";
import { fitStringToProject, fitToProject, WARNINGS_FAIL } from "./project-fit.ts";
import { type Command, TOOLS } from "./tools.ts";

export type { RulesProject } from "./commands.ts";

export type RulesResult =
  | { ok: true; callback: ManagedCallback; notes: string[] }
  | { ok: false; problem: string; hint: string };

const EXAMPLE = "e.g. 'run `make lint` after I edit C files'";

/** A few characters grow when lowercased: offsets must not move. */
function lowerSameLength(text: string): string {
  let out = "";
  for (const c of text) {
    const l = c.toLowerCase();
    out += l.length === c.length ? l : c;
  }
  return out;
}

/** A bash word for an argv element; `{files}` becomes the files cpilot passes as "$@". */
function shellWord(arg: string): string {
  if (arg === "{files}" || arg === "{file}") return '"$@"';
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function asBash(run: string | readonly string[]): string {
  return typeof run === "string" ? run : run.map(shellWord).join(" ");
}

/** A quoted command: run as written, with a known tool's files and limits when it is one. */
function quotedCommand(text: string, span: Span): Found {
  const lower = text.toLowerCase();
  const tool = TOOLS.find((t) => t.re.test(lower));
  const command: Command = tool
    ? { ...tool, run: text, label: text }
    : { name: slug(text), label: text, run: text, patterns: [], timeout: 120, project: false };
  return { command, span, note: `runs \`${text}\` with bash, as written` };
}

/** A lint command that fails on warnings too, where the tool has a switch for it. */
function failOnWarnings(run: string | readonly string[]): string | readonly string[] {
  if (typeof run === "string") return run;
  const tool = run.find(
    (a) => /(?:^|\/)(?:eslint|oxlint)$/.test(a) || a === "eslint" || a === "oxlint",
  );
  if (tool === undefined || run.some((a) => /^--(?:max-warnings|deny-warnings)/.test(a)))
    return run;
  const flag = tool.endsWith("eslint") ? ["--max-warnings", "0"] : ["--deny-warnings"];
  const at = run.indexOf(tool) + 1;
  return [...run.slice(0, at), ...flag, ...run.slice(at)];
}

const looksLikeFiles = (text: string): boolean =>
  !/\s/.test(text) && (text.includes("*") || text.endsWith("/"));

/**
 * Build a callback from common phrasings without a model: known tools, file kinds,
 * folders, globs, "in the background", "after each file", time limits and success
 * messages. Deterministic: the same words (and project files) give the same callback.
 * When a piece is missing it says which, and how to say it.
 *
 * @example
 * buildFromRules("run cargo check after I edit rust files and show me the errors")
 * // → { name: "cargo-check", pattern: ["*.rs"], run: "cargo check …", timeout: 300, … }
 */
export function buildFromRules(words: string, project: RulesProject = {}): RulesResult {
  const original = words.trim().replace(/\s+/g, " ");
  if (original === "") {
    return {
      ok: false,
      problem: "the request is empty",
      hint: `say what to run and when, ${EXAMPLE}`,
    };
  }
  const used: Span[] = [];
  const success = readSuccess(original);
  if (success) used.push(success.span);
  const quoted: Found[] = [];
  for (const q of readQuoted(blank(original, used))) {
    if (looksLikeFiles(q.text)) continue;
    quoted.push(quotedCommand(q.text, q.span));
    used.push(q.span);
  }
  const lower = lowerSameLength(original);
  const found = explicitCommands(blank(lower, used), blank(original, used), quoted, project);
  used.push(...found.map((f) => f.span));
  const files = readFiles(blank(lower, used), blank(original, used), project.topLevel ?? []);
  if (files.patterns.length === 0 && files.unknown.length > 0) {
    return {
      ok: false,
      problem: `cannot tell which files "${files.unknown[0]}" means in "${original}"`,
      hint: "name them by extension or glob, e.g. '*.cbl files' or 'src/**/*.cob'",
    };
  }
  if (found.length === 0) {
    const intents = fromIntents(files.rest, files.languages, project);
    if (!intents.ok) {
      return {
        ok: false,
        problem: `"${intents.word}" needs a tool: ${intents.lang ? `no ${intents.word} tool is known for ${intents.lang} files` : "no language or tool recognised"} in "${original}"`,
        hint: `name the tool or the files, e.g. '${intents.word} python files' or 'run ruff after I edit python files'`,
      };
    }
    found.push(...intents.found);
  }
  if (found.length === 0) {
    return {
      ok: false,
      problem: `no command recognised in "${original}"`,
      hint: `say which command to run, ${EXAMPLE}`,
    };
  }
  // Copies: the commands are fitted to this request below; TOOLS stays as it is.
  const commands = found.map((f) => ({ ...f.command }));
  const notes = found.flatMap((f) => (f.note ? [f.note] : []));
  const label = commands.map((c) => c.label).join(" and ");
  let pattern = files.patterns;
  if (pattern.length > 0) {
    notes.push(
      `files: ${pattern.join(", ")} (from ${files.readFrom.map((r) => `"${r}"`).join(", ")})`,
    );
  } else {
    pattern = [...new Set(commands.flatMap((c) => c.patterns))];
    if (pattern.length === 0) {
      return {
        ok: false,
        problem: `no files recognised in "${original}" (${label} has no usual files)`,
        hint: "say which files, e.g. 'after I edit C files', '*.c' or 'in src/'",
      };
    }
    notes.push(`files: ${pattern.join(", ")} (the usual for ${label}; name files to change it)`);
  }
  const options = readOptions(
    blank(
      lower,
      quoted.map((q) => q.span),
    ),
  );
  let run: string | string[];
  if (WARNINGS_FAIL.test(lower)) {
    for (const c of commands) {
      const strict = failOnWarnings(c.run);
      if (strict !== c.run) {
        Object.assign(c, { run: strict });
        notes.push(`${c.label} fails on warnings, as asked`);
      }
    }
  }
  for (const c of commands) {
    const fitted =
      typeof c.run === "string"
        ? fitStringToProject(c.run, project.root)
        : fitToProject(c.run, project.root);
    Object.assign(c, { run: fitted });
  }
  if (commands.length === 1) {
    const only = commands[0]!.run;
    run =
      typeof only === "string"
        ? only
        : only.map((a) => (options.per === "file" && a === "{files}" ? "{file}" : a));
  } else {
    run = commands.map((c) => asBash(c.run)).join(" && ");
    notes.push(`runs ${label} in turn, stopping at the first failure`);
  }
  const timeout = options.timeout ?? Math.max(...commands.map((c) => c.timeout));
  if (options.timeout === undefined) {
    notes.push(
      `timeout ${timeout} s, the usual for ${label} (say 'for up to 2 minutes' to change it)`,
    );
  }
  if (options.blocking === undefined) {
    notes.push("blocking: the agent waits for the result (say 'in the background' to not wait)");
  }
  const overlap = options.overlap ?? (commands.some((c) => c.project) ? "replace" : undefined);
  const callback: Record<string, unknown> = {
    name: slug(commands.map((c) => c.name).join("-")),
    description: original.length > 200 ? `${original.slice(0, 197)}...` : original,
    pattern,
    run,
    blocking: options.blocking ?? true,
    timeout,
  };
  if (options.per === "file") callback.per = "file";
  if (overlap !== undefined) callback.overlap = overlap;
  const message = success?.message ?? options.successMessage;
  if (message !== undefined) callback.successMessage = message;
  return { ok: true, callback: callback as unknown as ManagedCallback, notes };
}
