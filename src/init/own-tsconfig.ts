import { createHash } from "node:crypto";
import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Beside a package's own, to check it against its siblings' source. */
export const SOURCE_TSCONFIG = "tsconfig.cpilot.json";

const MARK =
  "Written by `cpilot init`, which replaces or removes it while it is as written (this line's hash)";

/**
 * Under a first key (tsc ignores unknown keys) that says init wrote it and hashes the
 * rest: an edit of its settings makes the file the person's, which init then leaves alone.
 * The hash is of the settings, not the text: the project's formatter may lay it out anew.
 */
export function ownTsconfigText(body: Record<string, unknown>): string {
  return plain({ "//": markOf(body), ...body });
}

function markOf(body: Record<string, unknown>): string {
  return `${MARK}: ${createHash("sha256").update(plain(body)).digest("hex").slice(0, 16)}`;
}

/** The same file as an earlier init wrote it, without the mark. */
export function unmarkedTsconfigText(body: Record<string, unknown>): string {
  return plain(body);
}

function plain(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The settings of a tsconfig.cpilot.json init wrote and no one has changed since (its mark matches); null otherwise. */
export function initWroteSettings(text: string): Record<string, unknown> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
  const { "//": mark, ...body } = parsed as Record<string, unknown>;
  return mark === markOf(body) ? body : null;
}

/** True when `text` is a tsconfig.cpilot.json as init wrote it: its mark, its settings unchanged, whatever the layout. */
export function writtenByInit(text: string): boolean {
  return initWroteSettings(text) !== null;
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
