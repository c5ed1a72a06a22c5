/**
 * cpilot's own program in the project (the npm package, its platform binaries, the `.bin`
 * shims): shared hooks and the pre-commit hook run it, so an agent that rewrote
 * `bin/cpilot.sh` to `exit 0` would turn every check off. npm's config (`.npmrc`, any
 * folder) too: hooks that start cpilot through `npx` run its `script-shell` instead.
 */
import { join } from "node:path";
import { realOr } from "../util/real-path.ts";
import { projectPath } from "./own-config.ts";
import { skeleton } from "./protected.ts";

const KIND = "cpilot's own program, which the agents' hooks and the pre-commit hook run";
const NPM_CONFIG =
  "npm's config, which decides what npx runs when the agents' hooks start cpilot through it";

/** In some node_modules; else null. */
export function cpilotProgramKind(relPath: string): string | null {
  const parts = relPath
    .split(/[/\\]/)
    .filter((s) => s !== "" && s !== ".")
    .map(skeleton);
  if (parts.at(-1) === ".npmrc") return NPM_CONFIG;
  for (let i = 0; i + 1 < parts.length; i++) {
    if (parts[i] !== "node_modules") continue;
    const next = parts[i + 1];
    if (next === "cpilot" || next === "@cpilot") return KIND;
    if (next === ".bin" && /^cpilot(\.[a-z0-9]+)?$/.test(parts[i + 2] ?? "")) return KIND;
  }
  return null;
}

/** When they are links into the project (a workspace package): relative to the root, posix. */
export function linkedProgram(root: string): { folders: string[]; files: string[] } {
  const inProject = projectPath(root);
  const at = (path: string): string | null => {
    const real = realOr(path);
    return real === path ? null : inProject(real);
  };
  const folder = at(join(root, "node_modules", "cpilot"));
  const file = at(join(root, "node_modules", ".bin", "cpilot"));
  return { folders: folder === null ? [] : [folder], files: file === null ? [] : [file] };
}
