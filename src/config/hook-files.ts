/**
 * The agents' hook files, which the gate protects, given by the top of each process from the
 * agent registry. A gate asked before it was given them throws, so its pre-write is denied.
 */

let files: ReadonlySet<string> | null = null;

/** `<folder>/<file>`, in any folder, in lower case as the gate compares them. */
export function protectHookFiles(list: readonly string[]): void {
  files = new Set(list.map((f) => f.toLowerCase()));
}

export function hookFiles(): ReadonlySet<string> {
  if (files === null) throw new Error("the write gate was not given the agents' hook files");
  return files;
}
