/**
 * Bytes of file names per process. The binding limit is Linux's MAX_ARG_STRLEN on one
 * string (the whole list is one `CP_CHANGED_FILES`), not ARG_MAX; 1 KiB is left for slack.
 */
export const CHUNK_BYTES = 127 * 1024;

/** One name is never split. */
export function chunkFiles(files: readonly string[], limit = CHUNK_BYTES): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const file of files) {
    const bytes = Buffer.byteLength(file) + 1;
    if (current.length > 0 && size + bytes > limit) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(file);
    size += bytes;
  }
  if (current.length > 0 || chunks.length === 0) chunks.push(current);
  return chunks;
}
