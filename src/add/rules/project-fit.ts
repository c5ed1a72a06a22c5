import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cargoEdition } from "../../init/detect-rust.ts";

/** "fail on warnings", "no warnings", "warnings are errors", "deny warnings". */
export const WARNINGS_FAIL =
  /\b(?:fail|error|block)s?\s+(?:on|for)\s+(?:any\s+)?warnings?\b|\bwarnings?\s+(?:as|are)\s+errors?\b|\b(?:no|deny|zero)\s+warnings?\b/;

/**
 * The project's own binary instead of `npx --no-install` (no npm start-up or warnings in
 * the agent's output), and rustfmt with the crate's edition.
 */
export function fitToProject(run: readonly string[], root: string | undefined): string[] {
  let out = [...run];
  if (root === undefined) return out;
  if (out[0] === "npx" && out[1] === "--no-install" && out[2] !== undefined) {
    const local = `node_modules/.bin/${out[2]}`;
    if (existsSync(join(root, local))) out = [local, ...out.slice(3)];
  }
  const at = out.indexOf("--edition");
  if (out[0] === "rustfmt" && at !== -1) {
    let edition: string | undefined;
    try {
      edition = cargoEdition(readFileSync(join(root, "Cargo.toml"), "utf8"));
    } catch {
      edition = undefined;
    }
    if (edition !== undefined) out[at + 1] = edition;
  }
  return out;
}

/** For a bash string that starts with `npx --no-install TOOL`. */
export function fitStringToProject(run: string, root: string | undefined): string {
  const m = /^npx --no-install ([\w@./-]+)/.exec(run);
  if (m === null || root === undefined) return run;
  const local = `node_modules/.bin/${m[1]}`;
  return existsSync(join(root, local)) ? `${local}${run.slice(m[0].length)}` : run;
}
