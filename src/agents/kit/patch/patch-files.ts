import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { ChangeKind } from "../../../model/batch.ts";
import type { PendingWrite } from "../../../model/gate-types.ts";
import type { WrittenFile } from "../../../model/hook.ts";
import type { PatchFile } from "./patch-file.ts";

/**
 * One write the gate must allow per file a patch touches (a move: both ends), at the
 * absolute path the agent applies it to (see patchPath).
 */
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
 * Where a patch's path lands: Codex and OpenCode both make it absolute from the agent's
 * folder and drop `.` and `..` by name, before any symlink is followed (`link/../x` is
 * `x` beside `link`, wherever `link` points); the kernel follows links in what is left,
 * and so does the gate. A path holding a NUL is passed on as given, for the gate to refuse.
 */
export function patchPath(cwd: string, path: string): string {
  return path.includes("\0") ? path : resolve(cwd, path);
}

/**
 * The files a patch wrote, at the paths it applied them to, checked against the disk: an
 * added or updated file that is not there (the patch failed) is left out, and so is a
 * deleted one that still is.
 */
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
