import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { runGit } from "../../match/git.ts";

/** The line before ours in .git/info/exclude, so uninstall takes out only what install added. */
const MARKER = "# cpilot install claude --local: this machine's hook settings, never committed";

/** A worktree's is the common one. */
function excludeEntry(path: string): { exclude: string; line: string } | null {
  const folder = dirname(path);
  if (!existsSync(folder)) return null;
  const top = runGit(folder, ["rev-parse", "--show-toplevel"]);
  const where = runGit(folder, ["rev-parse", "--git-path", "info/exclude"]);
  if (!top.ok || !where.ok) return null;
  const file = where.stdout.trim();
  const exclude = isAbsolute(file) ? file : join(folder, file);
  const rel = relative(top.stdout.trim(), path).split("\\").join("/");
  if (rel.startsWith("..")) return null;
  return { exclude, line: `/${rel}` };
}

/**
 * `.claude/settings.local.json` holds this machine's absolute hook path: kept out of `git add -A`
 * through .git/info/exclude unless the project ignores it already. Returns the note, or null.
 */
export function excludeLocalSettings(path: string): string | null {
  const entry = excludeEntry(path);
  if (entry === null) return null;
  // Only an untracked file is excluded: an ignored one lists nothing, a tracked one is the
  // project's choice (and exclude cannot hide it anyway).
  const shown = runGit(dirname(path), [
    "status",
    "--porcelain",
    "--untracked-files=all",
    "--",
    path,
  ]);
  if (!shown.ok || !shown.stdout.startsWith("??")) return null;
  const current = existsSync(entry.exclude) ? readFileSync(entry.exclude, "utf8") : "";
  const sep = current === "" || current.endsWith("\n") ? "" : "\n";
  mkdirSync(dirname(entry.exclude), { recursive: true });
  writeFileSync(entry.exclude, `${current}${sep}${MARKER}\n${entry.line}\n`);
  return `  ${entry.line.slice(1)} is this machine's file: kept out of git in .git/info/exclude`;
}

export function unexcludeLocalSettings(path: string): void {
  const entry = excludeEntry(path);
  if (entry === null || !existsSync(entry.exclude)) return;
  const current = readFileSync(entry.exclude, "utf8");
  const ours = `${MARKER}\n${entry.line}\n`;
  if (current.includes(ours)) writeFileSync(entry.exclude, current.replace(ours, ""));
}
