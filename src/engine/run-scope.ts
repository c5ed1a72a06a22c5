import type { CallbackDef } from "../config/types.ts";

/** A bash string that reads the files it is given: "$@", "$1", "${*}", "$#", CP_CHANGED_FILE(S). */
const READS_FILES = /\$\{?[@*#1-9]|CP_CHANGED_FILE/;

/**
 * Does the callback check the same things whatever files it is given (`tsc -p .`, `npm run
 * lint`)? Then a file its last complete run did not name had no diagnostics then. A
 * command that takes the files (`eslint "$@"`, `{files}`) or a function may look at any
 * part of the project: false.
 */
export function checksWholeProject(run: CallbackDef["run"]): boolean {
  if (typeof run === "string") return !READS_FILES.test(run);
  if (typeof run === "function") return false;
  return !run.some((part) => part.includes("{file"));
}
