import { isAbsolute, relative, sep } from "node:path";
import type { FileChange } from "../model/batch.ts";
import { CpilotError } from "../util/errors.ts";
import { realOr } from "../util/real-path.ts";

/** git reports paths from its top level; the config may sit in a subfolder. */
export function rebase(changes: FileChange[], gitTop: string, root: string): FileChange[] {
  const prefix = rootPrefix(gitTop, root);
  if (prefix === "") return changes;
  return changes
    .filter((c) => c.path.startsWith(prefix))
    .map((c) => ({ path: c.path.slice(prefix.length), kind: c.kind }));
}

/**
 * `root`'s folder below git's top `gitTop`, `/`-separated with a trailing `/` ("" at the
 * top). git names its top by its real path: a root reached through a symlink (`--config
 * /link/pkg/callbacks.config.json`, a `$PWD` that went through one) is placed by its real
 * path too, or no file of it matched and the check passed on nothing.
 */
export function rootPrefix(gitTop: string, root: string): string {
  if (gitTop === root) return "";
  let rel = relative(gitTop, root);
  if (outside(rel)) rel = relative(gitTop, realOr(root));
  if (outside(rel)) {
    throw new CpilotError(`Cannot find "${root}" in the git work tree "${gitTop}"`, {
      hint: "pass --config a path inside the repository, without symlinks",
    });
  }
  return rel === "" ? "" : `${rel.split(sep).join("/")}/`;
}

const outside = (rel: string): boolean =>
  rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
