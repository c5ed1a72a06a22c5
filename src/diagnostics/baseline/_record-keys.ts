// The names records go by in a callback's baseline (./store.ts). A record belongs to a check
// (its definition key) and to content: one file's content (a blob id), or the whole project's
// (a worktree key, ../../cache/content.ts). Content never changes under its id, so a record
// is never stale: it says what that check found on that content.

/** The definition key, shortened: enough to tell a callback's definitions apart. */
export function shortDefinition(definition: string): string {
  return definition.slice(0, 12);
}

/** What the check found in `file` when it held the content `id`. */
export function fileKey(definition: string, id: string, file: string): string {
  return `F${definition}:${id}:${file}`;
}

/** That a run of a whole-project check on the project's content `tree` was recorded. */
export function treeKey(definition: string, tree: string): string {
  return `T${definition}:${tree}`;
}

/** What such a run found in `file` (no record: nothing). */
export function treeFileKey(definition: string, tree: string, file: string): string {
  return `T${definition}:${tree}:${file}`;
}

/** Diagnostics of `file` at content `id` the agent was already told cpilot cannot place. */
export function toldKey(definition: string, id: string, file: string): string {
  return `U${definition}:${id}:${file}`;
}

/**
 * Outside git (no HEAD to compare with): the content of `file` the check saw last, the
 * before of the next edit. Its record holds the id as numbers (see ./_entries.ts).
 */
export function lastSeenKey(definition: string, file: string): string {
  return `L${definition}:${file}`;
}
