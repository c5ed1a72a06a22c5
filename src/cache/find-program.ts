import { statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import type { InstallStamp } from "./program-id.ts";

/** The program a command starts, when it names one plainly (no variable, quote or shell syntax). */
export function programWord(
  run: string | readonly string[] | ((...args: never[]) => unknown),
): string | undefined {
  const program =
    typeof run === "string"
      ? run
          .trim()
          .split(/\s+/)
          .find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word))
      : Array.isArray(run)
        ? run[0]
        : undefined;
  if (program === undefined || program === "" || /[$`'"(){};|&<>]/.test(program)) return undefined;
  return program;
}

/**
 * The file `word` runs from `cwd`: a path, or the first executable one on PATH, as a shell
 * finds it (a file of that name that cannot run is passed over; a relative folder on PATH is
 * the callback's, not cpilot's); when none can run, the first file of that name. Null when
 * none is a file.
 */
export function findProgram(word: string, cwd: string): InstallStamp | null {
  const candidates = word.includes("/")
    ? [isAbsolute(word) ? word : join(cwd, word)]
    : (process.env.PATH ?? "")
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => resolve(cwd, dir, word));
  let firstFile: InstallStamp | null = null;
  for (const path of candidates) {
    try {
      const st = statSync(path, { throwIfNoEntry: false });
      if (!st?.isFile()) continue;
      const found = { path, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
      if ((st.mode & 0o111) !== 0) return found;
      firstFile ??= found;
    } catch {
      // a folder on PATH that cannot be read: the next one
    }
  }
  return firstFile;
}
