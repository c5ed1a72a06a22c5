import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { ChangeKind } from "../../../model/batch.ts";
import type { PendingWrite } from "../../../model/gate-types.ts";
import type { WrittenFile } from "../../../model/hook.ts";
import type { PatchFile } from "./patch-file.ts";

/** One write per file (a move: both ends), at the absolute path the agent applies it to. */
export function patchWrites(
  files: readonly PatchFile[],
  tool: { readonly tool: string; readonly agent: string; readonly session: string },
  cwd: string,
): PendingWrite[] {
  const out: PendingWrite[] = [];
  for (const f of files) {
    const path = patchPath(cwd, f.path);
    if (f.op === "add") out.push({ ...tool, path, content: f.content ?? "" });
    else out.push({ ...tool, path });
    if (f.moveTo !== undefined) out.push({ ...tool, path: patchPath(cwd, f.moveTo) });
  }
  return out;
}

/**
 * Codex and OpenCode make it absolute from the agent's folder and drop `.` and `..` by name
 * before any symlink is followed (`link/../x` is `x` beside `link`); the kernel, and the
 * gate, follow links in what is left. A path holding a NUL passes as given, for the gate to refuse.
 */
export function patchPath(cwd: string, path: string): string {
  return path.includes("\0") ? path : resolve(cwd, path);
}

/** Checked against the disk: an added or updated file that is not there, or a deleted one that still is, is left out. */
export function patchEdits(cwd: string, files: readonly PatchFile[]): WrittenFile[] {
  const out: WrittenFile[] = [];
  const put = (given: string, kind: ChangeKind): void => {
    const path = patchPath(cwd, given);
    const exists = existsSync(path);
    if (kind === "deleted" ? !exists : exists) out.push({ path, kind });
  };
  for (const f of files) {
    if (f.op === "add") put(f.path, "created");
    else if (f.op === "delete") put(f.path, "deleted");
    else if (f.moveTo !== undefined) {
      put(f.path, "deleted");
      put(f.moveTo, "created");
    } else put(f.path, "modified");
  }
  return out;
}
