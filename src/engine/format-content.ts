/**
 * A file's text as the project's fixers would leave it, without touching the file: the text
 * goes to a copy beside it (same folder and extension, so the fixers' config applies), the
 * fixers run on the copy, and it is read back and removed.
 */
import { rmSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import type { ResolvedCallback, ResolvedConfig } from "../config/resolve.ts";
import { isActive, readToggles } from "../config/state.ts";
import { randomHex } from "../platform/digest.ts";
import { readRegularFile } from "../util/read-regular.ts";
import { createEngine } from "./engine.ts";

const MAX_TEXT_BYTES = 8 * 1024 * 1024;

export type Formatted =
  | { readonly kind: "formatted"; readonly text: string; readonly fixers: readonly string[] }
  | { readonly kind: "unchanged"; readonly why: string };

/** The file's own stem and extension around a mark no project file has. */
function copyName(file: string): string {
  const ext = extname(file);
  const stem = basename(file, ext);
  return `${stem}.cpilot-format-${randomHex(6)}${ext}`;
}

/** The fixers of `rel` (not paused, not functions of the person's config run in this process). */
export function fixersOf(config: ResolvedConfig, rel: string): ResolvedCallback[] {
  const toggles = readToggles(config.root);
  return config.callbacks.filter(
    (cb) =>
      cb.fixes && isActive(cb, toggles) && typeof cb.run !== "function" && cb.matcher.matches(rel),
  );
}

/**
 * Format `text` as the content of `rel`. Any fixer that fails, times out or is stopped leaves
 * the text unchanged, as does a folder that does not exist yet.
 */
export async function formatContent(
  config: ResolvedConfig,
  rel: string,
  text: string,
  options: { readonly signal: AbortSignal; readonly deadlineMs: number },
): Promise<Formatted> {
  const fixers = fixersOf(config, rel);
  if (fixers.length === 0) return { kind: "unchanged", why: "no fixer matches the file" };
  const copyRel = join(dirname(rel), copyName(rel)).replace(/^\.\//, "");
  const copy = join(config.root, copyRel);
  try {
    // wx: never overwrites a file already there
    writeFileSync(copy, text, { flag: "wx", mode: 0o600 });
  } catch (err) {
    return { kind: "unchanged", why: `the copy could not be written (${(err as Error).message})` };
  }
  try {
    const onCopy = { matches: (path: string) => path === copyRel };
    const callbacks = fixers.map(
      ({ triggers: _triggers, ...cb }): ResolvedCallback => ({
        ...cb,
        matcher: onCopy,
        blocking: true,
        timeoutMs: Math.min(cb.timeoutMs, options.deadlineMs),
        cache: false,
        after: [],
      }),
    );
    const engine = createEngine({ root: config.root, config: { ...config, callbacks } });
    const outcome = await engine.run(
      {
        root: config.root,
        files: [{ path: copyRel, kind: "modified" }],
        origin: { surface: "api" },
      },
      { signal: options.signal },
    );
    const failed = outcome.runs.find((r) => r.status !== "passed" && r.status !== "silent");
    if (failed !== undefined)
      return { kind: "unchanged", why: `${failed.callback}: ${failed.summary}` };
    if (options.signal.aborted) return { kind: "unchanged", why: "out of time" };
    // A fixer may leave anything at the name: only a regular UTF-8 file of a sane size is text.
    const bytes = readRegularFile(copy, MAX_TEXT_BYTES);
    const fixed = bytes?.toString("utf8");
    if (bytes === null || fixed === undefined || !Buffer.from(fixed, "utf8").equals(bytes))
      return { kind: "unchanged", why: "the fixers left no text file" };
    return { kind: "formatted", text: fixed, fixers: fixers.map((f) => f.name) };
  } finally {
    rmSync(copy, { force: true });
  }
}
