import type { Target } from "../util/contained-write.ts";
import { encodeUtf8 } from "../util/utf8-text.ts";
import type { MdDoc } from "./_doc.ts";
import { writeContextFile } from "./_write.ts";
import type { UpdateResult } from "./types.ts";

export interface FileState {
  path: string;
  /** Relative to the context directory, for diffs. */
  relative: string;
  /** null when the file did not exist. */
  original: Uint8Array | null;
  /** null while the file does not exist. */
  doc: MdDoc | null;
  bom: boolean;
  results: UpdateResult[];
}

/** A file that cannot be written is left as it was, and each update that changed it becomes a failure. */
export function writeFiles(
  states: Iterable<FileState>,
  backup: boolean,
  backedUp: Set<string>,
  open: (path: string) => Target,
): void {
  for (const state of states) {
    if (state.doc === null) continue;
    const bytes = encodeUtf8(state.doc.text(), state.bom);
    if (
      state.original !== null &&
      Buffer.compare(Buffer.from(bytes), Buffer.from(state.original)) === 0
    )
      continue;
    const first = !backedUp.has(state.path);
    try {
      const target = open(state.path);
      try {
        writeContextFile(target, bytes, state.original, backup && first);
      } finally {
        target.dir.close();
      }
      if (backup) backedUp.add(state.path);
    } catch (err) {
      const message = (err as Error).message;
      for (const result of state.results) {
        result.ok = false;
        result.error = `Cannot write "${result.file}": ${message}`;
        result.hint =
          "the file was left as it was; check permissions and free space, then apply again";
      }
    }
  }
}
