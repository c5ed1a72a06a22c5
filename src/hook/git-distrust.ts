import { type GitEnv, runGit, splitNul } from "../match/git.ts";

/**
 * Settings the agent's shell can write into the repository's config that make `git status`
 * skip files or run its program: an fsmonitor that says nothing changed, stat checks that
 * ignore ctime, nanoseconds or everything, clean filters that hand git the committed bytes.
 * cpilot overrides them all, so git compares the files themselves.
 */
const PINNED: readonly (readonly [string, string])[] = [
  ["core.fsmonitor", "false"],
  ["core.trustctime", "true"],
  ["core.checkStat", "default"],
  ["core.ignoreStat", "false"],
];

/**
 * `GIT_CONFIG_KEY_<n>` pairs take any name (a filter driver's may hold `=`). `core`, when
 * given, gets the repository's `core.worktree` and `core.bare` as `key=value` lines, or "?"
 * when git answers nothing: read in the same call.
 */
export function distrustEnv(
  cwd: string,
  kept: readonly (readonly [string, string])[] = [],
  where: GitEnv = {},
  core?: string[],
): GitEnv {
  const settings: (readonly [string, string])[] = [...PINNED, ...kept];
  const pattern = core === undefined ? "^filter\\." : "^(filter\\.|core\\.(worktree|bare)$)";
  const filters = runGit(cwd, ["config", "-z", "--get-regexp", pattern], {
    ...where,
    ...configEnv(PINNED),
  });
  if (!filters.ok) core?.push("?");
  if (filters.ok) {
    const drivers = new Set<string>();
    for (const entry of splitNul(filters.stdout)) {
      const end = entry.indexOf("\n");
      const key = end < 0 ? entry : entry.slice(0, end);
      if (key === "core.worktree" || key === "core.bare") {
        core?.push(`${key}=${end < 0 ? "" : entry.slice(end + 1)}`);
        continue;
      }
      const last = key.lastIndexOf(".");
      if (last > "filter.".length) drivers.add(key.slice("filter.".length, last));
    }
    // An empty command is no filter: git hashes the file's own bytes.
    for (const driver of drivers)
      settings.push([`filter.${driver}.clean`, ""], [`filter.${driver}.process`, ""]);
  }
  return { ...where, ...configEnv(settings) };
}

function configEnv(settings: readonly (readonly [string, string])[]): GitEnv {
  const given = Number(process.env.GIT_CONFIG_COUNT ?? 0);
  const first = Number.isSafeInteger(given) && given > 0 ? given : 0;
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(first + settings.length) };
  settings.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${first + i}`] = key;
    env[`GIT_CONFIG_VALUE_${first + i}`] = value;
  });
  return env;
}
