import { runGit } from "./git.ts";

export function gitRoot(cwd: string): string | null {
  const result = runGit(cwd, ["rev-parse", "--show-toplevel"]);
  if (!result.ok) return null;
  const top = result.stdout.endsWith("\n") ? result.stdout.slice(0, -1) : result.stdout;
  return top === "" ? null : top;
}
