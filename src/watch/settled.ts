import { join } from "node:path";
import { hashRegularFile } from "../util/read-regular.ts";

/** sha1 of a file's bytes, or null when it is not there (or not a readable file). */
export function fileHash(root: string, rel: string): string | null {
  return hashRegularFile(join(root, rel));
}

/**
 * What each file held when cpilot last finished with it (after a batch's runs: a
 * formatter's rewrite included). A change event for a file that still holds exactly that
 * is cpilot's own write, or no change at all, and starts nothing: this is what keeps a
 * formatter from triggering itself forever.
 */
export class Settled {
  readonly #hashes = new Map<string, string | null>();

  /** Remember what `paths` hold now. */
  record(root: string, paths: Iterable<string>): void {
    for (const path of paths) this.#hashes.set(path, fileHash(root, path));
  }

  /** True when `path` was a file when last recorded. */
  knewFile(path: string): boolean {
    return typeof this.#hashes.get(path) === "string";
  }

  /** True when `path` holds what was recorded (a deleted file counts if it was gone then too). */
  unchanged(root: string, path: string): boolean {
    if (!this.#hashes.has(path)) return false;
    return this.#hashes.get(path) === fileHash(root, path);
  }
}
