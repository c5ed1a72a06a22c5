import { runAsync } from "../platform/run-async.ts";
import { type CapturedRun, runSync, utf8 } from "../platform/run-sync.ts";
import { CpilotError } from "../util/errors.ts";
import { decodeBytes } from "../util/path-bytes.ts";

export interface GitResult {
  /** Exit code 0. */
  readonly ok: boolean;
  readonly stdout: string;
  readonly stderr: string;
  /** git is not installed (or `cwd` does not exist). */
  readonly missing: boolean;
  /** git did not answer within {@link gitTimeoutMs} and was killed. */
  readonly timedOut: boolean;
}

/**
 * How long a git call may take before it is killed: a repository on a file system that
 * stopped answering, or a hook or fsmonitor that hangs, must not hang a pre-commit or an
 * agent's hook with it. `CPILOT_GIT_TIMEOUT_MS` overrides the 2 minutes (huge repos).
 */
export function gitTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const ms = Number(env.CPILOT_GIT_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : 120_000;
}

/**
 * Pathspecs are literal (a file named `*` means that file), no optional locks are taken (an
 * agent may be running git beside us), and messages are in English so callers can read them.
 */
function gitEnv(extra: GitEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...extra,
    // `check-ignore` takes paths, and refuses to run with this set: its callers say "0".
    GIT_LITERAL_PATHSPECS: extra.GIT_LITERAL_PATHSPECS ?? "1",
    GIT_OPTIONAL_LOCKS: "0",
    LC_ALL: "C",
  };
  // An fsmonitor is a program the repository's config names, which the agent's shell can
  // set: git would run it here, outside the agent's sandbox, and believe what it says
  // changed. cpilot's git looks at the files itself.
  const given = Number(env.GIT_CONFIG_COUNT ?? 0);
  const n = Number.isSafeInteger(given) && given > 0 ? given : 0;
  env[`GIT_CONFIG_KEY_${n}`] = "core.fsmonitor";
  env[`GIT_CONFIG_VALUE_${n}`] = "false";
  env.GIT_CONFIG_COUNT = String(n + 1);
  return env;
}

/** Variables a git call gets over this process's own (another index: GIT_INDEX_FILE). */
export type GitEnv = Readonly<Record<string, string>>;

function toGitResult(result: CapturedRun): GitResult {
  return {
    ok: result.status === 0,
    // a file name is bytes: ones that are not UTF-8 are kept (see path-bytes.ts)
    stdout: decodeBytes(result.stdout),
    stderr: utf8(result.stderr).trim(),
    missing: result.error === "ENOENT",
    timedOut: result.timedOut === true,
  };
}

/** Run git with an argument array (never a shell) in `cwd`; see {@link gitEnv}. */
export function runGit(cwd: string, args: readonly string[], env?: GitEnv): GitResult {
  return toGitResult(runSync("git", args, { cwd, env: gitEnv(env), timeoutMs: gitTimeoutMs() }));
}

/** {@link runGit} with stdout as bytes: file contents (binary files too). */
export function runGitBytes(cwd: string, args: readonly string[], env?: GitEnv): CapturedRun {
  return runSync("git", args, { cwd, env: gitEnv(env), timeoutMs: gitTimeoutMs() });
}

/** {@link runGit} without blocking, so independent git scans can overlap. */
export async function runGitAsync(cwd: string, args: readonly string[]): Promise<GitResult> {
  return toGitResult(
    await runAsync("git", args, { cwd, env: gitEnv(), timeoutMs: gitTimeoutMs() }),
  );
}

/**
 * {@link runGit} with `args` followed by the NUL-separated names in the file `listFile`:
 * a process's arguments reach it as UTF-8, so a name that is not (see path-bytes.ts) goes
 * through a file as its bytes, and xargs (which keeps them) adds them to git's command line.
 */
export function runGitWithList(
  cwd: string,
  args: readonly string[],
  listFile: string,
  env?: GitEnv,
): GitResult {
  return toGitResult(runGitBytesWithList(cwd, args, listFile, env));
}

/** {@link runGitWithList} with stdout as bytes: file contents. */
export function runGitBytesWithList(
  cwd: string,
  args: readonly string[],
  listFile: string,
  env?: GitEnv,
): CapturedRun {
  const script = 'f=$1; shift; exec xargs -0 git "$@" < "$f"';
  return runSync("sh", ["-c", script, "sh", listFile, ...args], {
    cwd,
    env: gitEnv(env),
    timeoutMs: gitTimeoutMs(),
  });
}

/** True when git failed because `cwd` is not inside a work tree (or git is missing). */
export function isNotRepo(result: GitResult): boolean {
  return result.missing || /not a git repository/i.test(result.stderr);
}

/** `-z` output: NUL-terminated fields, so any byte but NUL may appear in a name. */
export function splitNul(stdout: string): string[] {
  const fields = stdout.split("\0");
  if (fields.at(-1) === "") fields.pop();
  return fields;
}

/** The CpilotError for a failed git call: what could not be done, and git's first line. */
export function gitFailure(
  cwd: string,
  args: readonly string[],
  result: GitResult,
  action: string,
): CpilotError {
  if (result.timedOut) {
    return new CpilotError(
      `Cannot ${action}: git did not answer within ${gitTimeoutMs() / 1000} s and was stopped`,
      {
        hint: `run \`git ${args.join(" ")}\` in ${cwd} to see what it waits for (a slow file system, a hook); CPILOT_GIT_TIMEOUT_MS allows more time`,
      },
    );
  }
  if (result.missing) {
    return new CpilotError(`Cannot ${action}: git is not installed or "${cwd}" does not exist`, {
      hint: "install git, or pass the files to check as arguments",
    });
  }
  const said = result.stderr.split("\n")[0]?.replace(/^(fatal|error): /, "") || "git failed";
  return new CpilotError(`Cannot ${action}: ${said}`, {
    hint: `run \`git ${args.join(" ")}\` in ${cwd} to see why`,
  });
}

/** Run git and return its stdout, or throw a CpilotError saying what could not be done. */
export function gitOrThrow(cwd: string, args: readonly string[], action: string): string {
  const result = runGit(cwd, args);
  if (result.ok) return result.stdout;
  throw gitFailure(cwd, args, result, action);
}
