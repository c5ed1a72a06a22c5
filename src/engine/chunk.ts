/**
 * Bytes of file names per process. Linux caps one argument or env string at 128 KiB
 * (MAX_ARG_STRLEN) and all of them at ARG_MAX; staying under 96 KiB keeps both
 * `CP_CHANGED_FILES` and the argv of `{files}` safe.
 */
export const CHUNK_BYTES = 96 * 1024;

/** Split a file list into runs of at most `limit` bytes of names (one name is never split). */
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
