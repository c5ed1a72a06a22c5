import type { ResolvedCallback } from "../config/resolve.ts";
import type { ChangeKind, EditBatch } from "../model/batch.ts";
import type { TriggerInput } from "./triggers/types.ts";

export interface ScriptInput {
  readonly runId: string;
  readonly callback: ResolvedCallback;
  readonly batch: EditBatch;
  readonly files: readonly string[];
  readonly nulListPath: string;
  readonly extraEnv?: Readonly<Record<string, string>>;
  readonly depth?: number;
  readonly hook?: TriggerInput;
}

/** Inherited hook variables are not this run's. */
const HOOK_ENV = [
  "CP_HOOK_OUTPUT",
  "CP_HOOK_TRIGGER",
  "CP_HOOK_RULE",
  "CP_HOOK_PARENT_RUN",
  "CP_HOOK_PARENT_CALLBACK",
] as const;

/** The user's environment, the callback's, then `CP_*`. */
export function scriptEnv(input: ScriptInput): NodeJS.ProcessEnv {
  const { callback, batch, files } = input;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...callback.env,
    ...input.extraEnv,
    CP_CHANGED_FILES: files.join("\n"),
    CP_CHANGED_FILES_NUL: input.nulListPath,
    CP_PROJECT_ROOT: batch.root,
    CP_CALLBACK_NAME: callback.name,
    CP_RUN_ID: input.runId,
    CP_HOOK_DEPTH: String(input.depth ?? 0),
  };
  if (callback.per === "file" && files[0] !== undefined) env.CP_CHANGED_FILE = files[0];
  else delete env.CP_CHANGED_FILE;
  const { hook } = input;
  if (hook) {
    env.CP_HOOK_OUTPUT = hook.output;
    env.CP_HOOK_TRIGGER = hook.trigger;
    env.CP_HOOK_RULE = hook.rule;
    env.CP_HOOK_PARENT_RUN = hook.parentRunId;
    env.CP_HOOK_PARENT_CALLBACK = hook.parentCallback;
  } else {
    for (const key of HOOK_ENV) delete env[key];
  }
  return env;
}

const unusualKinds = new WeakMap<EditBatch, ReadonlyMap<string, ChangeKind>>();

/** Only the kinds that are not "modified": most are, and a map entry per file is costly. */
function kindsNotModified(batch: EditBatch): ReadonlyMap<string, ChangeKind> {
  let kinds = unusualKinds.get(batch);
  if (kinds === undefined) {
    const map = new Map<string, ChangeKind>();
    for (const change of batch.files) {
      if (change.kind !== "modified") map.set(change.path, change.kind);
    }
    kinds = map;
    unusualKinds.set(batch, kinds);
  }
  return kinds;
}

/** The batch as JSON on stdin: the one channel where no file name can be mangled. */
export function scriptStdin(input: ScriptInput): string {
  const kinds = kindsNotModified(input.batch);
  return `${JSON.stringify({
    runId: input.runId,
    callback: input.callback.name,
    root: input.batch.root,
    files: input.files,
    changes: input.files.map((path) => ({ path, kind: kinds.get(path) ?? "modified" })),
    origin: input.batch.origin,
    ...(input.hook ? { hook: input.hook } : {}),
  })}\n`;
}

/** A name starting with `-` gets `./`, so a file called `--plugin=evil.js` is never an option. */
function asArgument(file: string): string {
  return file.startsWith("-") ? `./${file}` : file;
}

const PLAIN_WORD = /^[A-Za-z0-9_./:@%+,=-]+$/;

const ALL_FILES = '"$@"';

/** Names bash runs itself (builtins, keywords): `echo`, `test` or `kill` as programs differ from bash's own. */
const BASH_OWN = new Set(
  (
    ". : [ [[ ]] { } ! alias bg bind break builtin caller case cd command compgen complete " +
    "compopt continue coproc declare dirs disown do done echo elif else enable esac eval exec " +
    "exit export false fc fg fi for function getopts hash help history if in jobs kill let " +
    "local logout mapfile popd printf pushd pwd read readarray readonly return select set " +
    "shift shopt source suspend test then time times trap true type typeset ulimit umask " +
    "unalias unset until wait while"
  ).split(" "),
);

/**
 * The words of a bash string that is one plain command (`eslint --fix "$@"`), which bash would
 * run as exactly that argv: started without bash. Null for anything else.
 */
export function plainCommand(run: string): string[] | null {
  if (run.length > 4096) return null;
  const words = run.trim().split(/[ \t]+/);
  const first = words[0];
  if (first === undefined || first === "" || first === ALL_FILES) return null;
  // `NAME=value cmd` sets a variable for the command: bash's job
  if (first.includes("=") || BASH_OWN.has(first)) return null;
  for (const word of words) if (word !== ALL_FILES && !PLAIN_WORD.test(word)) return null;
  return words;
}

export interface CommandLine {
  readonly command: string;
  readonly args: string[];
  /** The same command through bash, for a plain command that could not start (bash says why). */
  readonly viaBash?: { readonly command: string; readonly args: string[] };
}

/**
 * A string runs in bash with pipefail and the files as `"$@"`; an argv array runs with no
 * shell, `{file}` / `{files}` expanding to arguments. File names are never pasted into shell
 * text, and never read as options.
 */
export function commandLine(
  run: string | readonly string[],
  names: readonly string[],
  callbackName: string,
): CommandLine {
  const files = names.map(asArgument);
  if (typeof run === "string") {
    const viaBash = {
      command: "bash",
      args: [
        "--norc",
        "--noprofile",
        "-o",
        "pipefail",
        "-c",
        run,
        `cpilot:${callbackName}`,
        ...files,
      ],
    };
    const plain = plainCommand(run);
    if (plain === null) return viaBash;
    const argv = plain.flatMap((word) => (word === ALL_FILES ? files : [word]));
    return { command: argv[0] ?? "", args: argv.slice(1), viaBash };
  }
  const args: string[] = [];
  for (const part of run) {
    if (part === "{files}") args.push(...files);
    else if (part === "{file}") args.push(files[0] ?? "");
    // inside a larger argument (`--input={file}`) the name cannot be an option
    else args.push(part.includes("{file}") ? part.replaceAll("{file}", names[0] ?? "") : part);
  }
  const [command, ...rest] = args;
  return { command: command ?? "", args: rest };
}
