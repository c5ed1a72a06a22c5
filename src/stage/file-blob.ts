import type { Buffer } from "node:buffer";
import * as fs from "node:fs";
import { blobId } from "../cache/blob-id.ts";
import { fsPath } from "../util/path-bytes.ts";

export interface FileBlob {
  /** `<mode> <blob id>`, or "absent", or "other" (a folder). */
  readonly key: string;
  readonly mode: string | null;
  readonly bytes: Buffer | null;
}

const ABSENT: FileBlob = { key: "absent", mode: null, bytes: null };
const OTHER: FileBlob = { key: "other", mode: null, bytes: null };

/** Read `path` once and name its content as git does, to compare readings with each other and with the index. */
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
    return { key: `${mode} ${blobId(bytes, long ? "sha256" : "sha1")}`, mode, bytes };
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? ABSENT : OTHER;
  }
}
