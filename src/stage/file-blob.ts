import { Buffer } from "node:buffer";
import * as fs from "node:fs";
import { digestHex } from "../platform/digest.ts";
import { fsPath } from "../util/path-bytes.ts";

/** A work-tree file as git would store it unfiltered: its mode and blob id, with its bytes. */
export interface FileBlob {
  /** `<mode> <blob id>` (100644, 100755 or 120000), or "absent", or "other" (a folder). */
  readonly key: string;
  readonly mode: string | null;
  /** The file's bytes (a link's: its target); null when absent or not a file. */
  readonly bytes: Buffer | null;
}

const ABSENT: FileBlob = { key: "absent", mode: null, bytes: null };
const OTHER: FileBlob = { key: "other", mode: null, bytes: null };

/**
 * Read `path` once and name its content as git does (`long`: a SHA-256 repository), so two
 * readings compare by key and a reading compares with the index's blob id.
 */
export function readBlob(path: string, long: boolean): FileBlob {
  try {
    const p = fsPath(path);
    const stat = fs.lstatSync(p, { throwIfNoEntry: false });
    if (stat === undefined) return ABSENT;
    let bytes: Buffer;
    let mode: string;
    if (stat.isSymbolicLink()) {
      bytes = fs.readlinkSync(p, { encoding: "buffer" });
      mode = "120000";
    } else if (stat.isFile()) {
      bytes = fs.readFileSync(p);
      mode = stat.mode & 0o100 ? "100755" : "100644";
    } else return OTHER;
    const header = Buffer.from(`blob ${bytes.length}\0`);
    return { key: `${mode} ${digestHex(long ? "sha256" : "sha1", [header, bytes])}`, mode, bytes };
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? ABSENT : OTHER;
  }
}
