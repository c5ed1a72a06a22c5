import { join } from "node:path";
import { hashRegularFile } from "../util/read-regular.ts";

/** null when not a readable file. */
export function fileHash(root: string, rel: string): string | null {
  return hashRegularFile(join(root, rel));
}

/**
 * What each file held when cpilot last finished with it. A change event for a file that
 * still holds that is cpilot's own write (a formatter's) and starts nothing: this keeps a
 * formatter from triggering itself forever.
 */
export class Settled {
  readonly #hashes = new Map<string, string | null>();

  record(root: string, paths: Iterable<string>): void {
    for (const path of paths) this.#hashes.set(path, fileHash(root, path));
  }

  knewFile(path: string): boolean {
    return typeof this.#hashes.get(path) === "string";
  }

  /** A deleted file counts if it was gone then too. */
  unchanged(root: string, path: string): boolean {
    if (!this.#hashes.has(path)) return false;
    return this.#hashes.get(path) === fileHash(root, path);
  }
}
