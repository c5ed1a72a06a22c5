/** Ask git itself: which paths does a .gitignore holding these rules ignore? */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** git with no user, system or global config, so only the test's rules count. */
export function cleanGitEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: join(home, "gitconfig"),
  };
}

/**
 * For each group (a rule list and paths), git's verdict per path. One temp repo and one
 * `git check-ignore --no-index -v -n -z --stdin` call for all groups: group i's rules are
 * the .gitignore of directory `g<i>/`, which git applies to paths below it exactly as a
 * root .gitignore applies to the root. (Paths must not start with ":", pathspec magic.)
 */
export function gitIgnores(
  groups: readonly { rules: readonly string[]; paths: readonly string[] }[],
): boolean[][] {
  const dir = mkdtempSync(join(tmpdir(), "cpilot-oracle-"));
  try {
    const env = cleanGitEnv(dir);
    execFileSync("git", ["init", "-q", "repo"], { cwd: dir, env });
    const repo = join(dir, "repo");
    const input: string[] = [];
    groups.forEach((group, i) => {
      mkdirSync(join(repo, `g${i}`));
      writeFileSync(join(repo, `g${i}`, ".gitignore"), `${group.rules.join("\n")}\n`);
      for (const path of group.paths) input.push(`g${i}/${path}`);
    });
    const out = execFileSync("git", ["check-ignore", "--no-index", "-v", "-n", "-z", "--stdin"], {
      cwd: repo,
      env,
      input: `${input.join("\0")}\0`,
      maxBuffer: 1 << 28,
    });
    // -v -n -z: source NUL line NUL pattern NUL path NUL, pattern empty when none matched
    const fields = out.toString("utf8").split("\0");
    const verdict = new Map<string, boolean>();
    for (let f = 0; f + 3 < fields.length; f += 4) {
      const pattern = fields[f + 2]!;
      verdict.set(fields[f + 3]!, pattern !== "" && !pattern.startsWith("!"));
    }
    return groups.map((group, i) =>
      group.paths.map((path) => {
        const v = verdict.get(`g${i}/${path}`);
        if (v === undefined) throw new Error(`git gave no verdict for ${JSON.stringify(path)}`);
        return v;
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
