import { runAsync } from "../platform/run-async.ts";
import { type CapturedRun, runSync, utf8 } from "../platform/run-sync.ts";
import { CpilotError } from "../util/errors.ts";
import { decodeBytes } from "../util/path-bytes.ts";

export interface GitResult {
  readonly ok: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly missing: boolean;
  readonly timedOut: boolean;
}

/**
 * A git call is killed past this: a file system that stopped answering or a hanging fsmonitor
 * must not hang a commit or an agent's hook. `CPILOT_GIT_TIMEOUT_MS` overrides.
 */
export function gitTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const ms = Number(env.CPILOT_GIT_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : 120_000;
}

/** Literal pathspecs (a file named `*` is that file), no optional locks (an agent may run git beside us), English messages. */
function gitEnv(extra: GitEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...extra,
    // `check-ignore` refuses to run with this set: its callers say "0".
    GIT_LITERAL_PATHSPECS: extra.GIT_LITERAL_PATHSPECS ?? "1",
    GIT_OPTIONAL_LOCKS: "0",
    LC_ALL: "C",
  };
  // An fsmonitor is a program the repository's config names, which the agent's shell can set:
  // git would run it outside the agent's sandbox. cpilot's git looks at the files itself.
  const given = Number(env.GIT_CONFIG_COUNT ?? 0);
  const n = Number.isSafeInteger(given) && given > 0 ? given : 0;
  env[`GIT_CONFIG_KEY_${n}`] = "core.fsmonitor";
  env[`GIT_CONFIG_VALUE_${n}`] = "false";
  env.GIT_CONFIG_COUNT = String(n + 1);
  return env;
}

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

export function runGit(cwd: string, args: readonly string[], env?: GitEnv): GitResult {
  return toGitResult(runSync("git", args, { cwd, env: gitEnv(env), timeoutMs: gitTimeoutMs() }));
}

export function runGitBytes(cwd: string, args: readonly string[], env?: GitEnv): CapturedRun {
  return runSync("git", args, { cwd, env: gitEnv(env), timeoutMs: gitTimeoutMs() });
}

export async function runGitAsync(cwd: string, args: readonly string[]): Promise<GitResult> {
  return toGitResult(
    await runAsync("git", args, { cwd, env: gitEnv(), timeoutMs: gitTimeoutMs() }),
  );
}

/** Arguments reach a process as UTF-8, so names that are not go through a file as bytes, and xargs adds them. */
export function runGitWithList(
  cwd: string,
  args: readonly string[],
  listFile: string,
  env?: GitEnv,
): GitResult {
  return toGitResult(runGitBytesWithList(cwd, args, listFile, env));
}

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

export function isNotRepo(result: GitResult): boolean {
  return result.missing || /not a git repository/i.test(result.stderr);
}

/** NUL-terminated fields, so any byte but NUL may appear in a name. */
export function splitNul(stdout: string): string[] {
  const fields = stdout.split("\0");
  if (fields.at(-1) === "") fields.pop();
  return fields;
}

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

export function gitOrThrow(cwd: string, args: readonly string[], action: string): string {
  const result = runGit(cwd, args);
  if (result.ok) return result.stdout;
  throw gitFailure(cwd, args, result, action);
}
