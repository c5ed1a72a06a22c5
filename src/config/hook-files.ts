/**
 * The agents' hook files, which the gate protects (src/gate/own-config.ts): given by the top of
 * each process (main.ts, the library entry) from the agent registry, which the gate sits
 * below. A gate asked before it was given them cannot know what wires it in, so it throws,
 * and a pre-write it was deciding is denied.
 */

let files: ReadonlySet<string> | null = null;

/** Protect these files (`<folder>/<file>`, in any folder), in lower case as the gate compares them. */
export function protectHookFiles(list: readonly string[]): void {
  files = new Set(list.map((f) => f.toLowerCase()));
}

/** The agents' hook files; throws when none were given. */
export function hookFiles(): ReadonlySet<string> {
  if (files === null) throw new Error("the write gate was not given the agents' hook files");
  return files;
}
