/**
 * Size limits that keep a context update's memory bounded and linear: a block's content and
 * a context file are held a few times over (the text, its diff, the result), so neither may
 * be large. Context files are notes an agent reads at every start: megabytes are a mistake.
 */
export const MAX_BLOCK_BYTES = 1024 * 1024;
export const MAX_CONTEXT_FILE_BYTES = 8 * 1024 * 1024;

/** "1.0 MiB"-style size for messages. */
export function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
