/**
 * Bytes of file names per process. The binding limit is not the system's ARG_MAX (2 MiB on
 * Linux with the default stack, 1 MiB on macOS) but Linux's cap on one argument or
 * environment string, MAX_ARG_STRLEN (128 KiB with the smallest, 4 KiB, pages): the
 * whole list is one string in `CP_CHANGED_FILES`. This fills that string but for 1 KiB of
 * slack (its name and `=`), and the same names once more as arguments stay far under ARG_MAX.
 * The fuller each string, the fewer processes a long list takes.
 */
export const CHUNK_BYTES = 127 * 1024;

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
