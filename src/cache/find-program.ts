import { statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
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

/** The file `word` runs from `cwd`: a path, or the first on PATH; null when none is a file. */
export function findProgram(word: string, cwd: string): InstallStamp | null {
  const candidates = word.includes("/")
    ? [isAbsolute(word) ? word : join(cwd, word)]
    : (process.env.PATH ?? "")
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, word));
  for (const path of candidates) {
    try {
      const st = statSync(path, { throwIfNoEntry: false });
      if (st?.isFile())
        return { path, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
    } catch {
      // a folder on PATH that cannot be read: the next one
    }
  }
  return null;
}
