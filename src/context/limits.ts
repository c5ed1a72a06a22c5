/** A block and a context file are held a few times over (text, diff, result): neither may be large. */
export const MAX_BLOCK_BYTES = 1024 * 1024;
export const MAX_CONTEXT_FILE_BYTES = 8 * 1024 * 1024;

export function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
