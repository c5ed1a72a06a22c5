import { dirname, join } from "node:path";
import { CONFIG_NAMES } from "../config/find.ts";
import { runGit } from "../match/git.ts";
import { repositoryTop } from "../ui/seen-from.ts";

/**
 * Where runs judged in this repository keep their records: `root` first, then the folder of
 * every config git tracks (a package's own config keeps its runs in its folder, and the
 * agent told "cpilot logs <id>" may work elsewhere in the repository).
 */
export function runPlaces(root: string): string[] {
  const top = repositoryTop(root);
  const names = CONFIG_NAMES.map((name) => `:(glob)**/${name}`);
  // the pathspecs are patterns here, which cpilot's git reads literally unless told
  const listed = runGit(top, ["ls-files", "-z", "--", ...names], { GIT_LITERAL_PATHSPECS: "0" });
  const places = [root];
  if (!listed.ok) return places;
  for (const path of listed.stdout.split("\0")) {
    if (path === "") continue;
    const place = join(top, dirname(path));
    if (!places.includes(place)) places.push(place);
  }
  return places;
}
