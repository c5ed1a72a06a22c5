import { digestHex } from "../platform/digest.ts";
import type { ObjectFormat } from "./object-format.ts";

/**
 * git's blob id of `bytes`: the id `git hash-object` gives in a repository of that object
 * format, so it equals the index's and HEAD's.
 */
export function blobId(bytes: Uint8Array, format: ObjectFormat = "sha1"): string {
  return digestHex(format, [new TextEncoder().encode(`blob ${bytes.length}\0`), bytes]);
}
