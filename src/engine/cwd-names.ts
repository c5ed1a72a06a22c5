import { isAbsolute, relative, sep } from "node:path";

/**
 * The files a run is handed, relative to the folder it runs in (a callback's own `cwd`):
 * outside that folder they start with `../`.
 */
export function namesFromCwd(
  root: string,
  cwd: string,
  files: readonly string[],
): readonly string[] {
  const rel = relative(root, cwd);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return files;
  const prefix = `${rel.split(sep).join("/")}/`;
  const up = "../".repeat(prefix.split("/").length - 1);
  return files.map((f) => (f.startsWith(prefix) ? f.slice(prefix.length) : up + f));
}
