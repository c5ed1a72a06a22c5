import { existsSync } from "node:fs";
import { isAbsolute, resolve, sep } from "node:path";
import { pathInRoot } from "../../../hook/root-path.ts";
import type { FileChange } from "../../../model/batch.ts";
import type { PendingWrite } from "../../../model/gate-types.ts";
import type { PatchFile } from "./patch-file.ts";

/**
 * One write the gate must allow per file a patch touches (a move: both ends), at the
 * absolute path the agent applies it to: relative paths in a patch are relative to the
 * agent's working folder, which may be below the project root (the gate would otherwise
 * read them from the root: `lib.js` applied in `vendor/` is `vendor/lib.js`).
 */
export function patchWrites(
  files: readonly PatchFile[],
  agent: string,
  session: string,
  cwd: string,
): PendingWrite[] {
  const out: PendingWrite[] = [];
  for (const f of files) {
    const base = { tool: "apply_patch", agent, session };
    const path = patchPath(cwd, f.path);
    if (f.op === "add") out.push({ ...base, path, content: f.content ?? "" });
    else out.push({ ...base, path });
    if (f.moveTo) out.push({ ...base, path: patchPath(cwd, f.moveTo) });
  }
  return out;
}

/**
 * Where a patch's path lands: as written when absolute, else below `cwd`. Not tidied
 * (no `..` removed): Codex hands the joined path to the kernel, which applies `..` after
 * following the symlink before it, and the gate must check that same path.
 */
export function patchPath(cwd: string, path: string): string {
  if (path.includes("\0") || isAbsolute(path)) return path;
  return `${cwd.endsWith(sep) ? cwd.slice(0, -1) : cwd}${sep}${path}`;
}

/**
 * The batch changes a patch made, inside the root only, checked against the disk: an
 * added or updated file that is not there (the patch failed) is left out, and so is a
 * deleted one that still is.
 */
export function patchChanges(root: string, cwd: string, files: readonly PatchFile[]): FileChange[] {
  const seen = new Map<string, FileChange>();
  const put = (path: string, kind: FileChange["kind"]): void => {
    const exists = existsSync(isAbsolute(path) ? path : resolve(cwd, path));
    if (kind === "deleted" ? exists : !exists) return;
    const rel = pathInRoot(root, cwd, path);
    if (rel !== null) seen.set(rel, { path: rel, kind });
  };
  for (const f of files) {
    if (f.op === "add") put(f.path, "created");
    else if (f.op === "delete") put(f.path, "deleted");
    else if (f.moveTo) {
      put(f.path, "deleted");
      put(f.moveTo, "created");
    } else put(f.path, "modified");
  }
  return [...seen.values()];
}
