// The names records go by in a callback's baseline. A record belongs to a check and to
// content (a blob id, or the whole project's worktree key): content never changes under its
// id, so a record is never stale.

export function shortDefinition(definition: string): string {
  return definition.slice(0, 12);
}

export function fileKey(definition: string, id: string, file: string): string {
  return `F${definition}:${id}:${file}`;
}

export function treeKey(definition: string, tree: string): string {
  return `T${definition}:${tree}`;
}

export function treeFileKey(definition: string, tree: string, file: string): string {
  return `T${definition}:${tree}:${file}`;
}

export function toldKey(definition: string, id: string, file: string): string {
  return `U${definition}:${id}:${file}`;
}

/** Outside git: the content of `file` the check saw last, the before of the next edit. */
export function lastSeenKey(definition: string, file: string): string {
  return `L${definition}:${file}`;
}
