import { createHash } from "node:crypto";
import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Beside a package's own, to check it against its siblings' source. */
export const SOURCE_TSCONFIG = "tsconfig.cpilot.json";

const MARK =
  "Written by `cpilot init`, which replaces or removes it while it is as written (this line's hash)";

/**
 * Under a first key (tsc ignores unknown keys) that says init wrote it and hashes the
 * rest: an edit anywhere makes the file the person's, which init then leaves alone.
 */
export function ownTsconfigText(body: Record<string, unknown>): string {
  const sum = createHash("sha256").update(plain(body)).digest("hex").slice(0, 16);
  return plain({ "//": `${MARK}: ${sum}`, ...body });
}

/** The same file as an earlier init wrote it, without the mark. */
export function unmarkedTsconfigText(body: Record<string, unknown>): string {
  return plain(body);
}

function plain(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** True when `text` is a tsconfig.cpilot.json exactly as init wrote it (its mark, no edit since). */
export function writtenByInit(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return false;
  const { "//": mark, ...body } = parsed as Record<string, unknown>;
  return typeof mark === "string" && ownTsconfigText(body) === text;
}

export interface LeftoverTsconfig {
  /** Relative to the project root. */
  readonly path: string;
  readonly initWrote: boolean;
}

/** Left by an earlier init for a package that no longer reads built types; a link or non-file is never init's. */
export function leftoverTsconfigs(
  root: string,
  dirs: readonly string[],
  proposed: ReadonlySet<string>,
): LeftoverTsconfig[] {
  const out: LeftoverTsconfig[] = [];
  for (const dir of new Set(dirs)) {
    const path = dir === "" ? SOURCE_TSCONFIG : join(dir, SOURCE_TSCONFIG);
    if (proposed.has(path)) continue;
    const initWrote = ownFile(join(root, path));
    if (initWrote !== null) out.push({ path, initWrote });
  }
  return out;
}

/** null when there is no such file. */
export function ownFile(abs: string): boolean | null {
  let isFile: boolean;
  try {
    isFile = lstatSync(abs).isFile();
  } catch {
    return null;
  }
  try {
    return isFile && writtenByInit(readFileSync(abs, "utf8"));
  } catch {
    return false;
  }
}
