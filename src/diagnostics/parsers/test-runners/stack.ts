/** A JavaScript stack frame's spot: `at fn (src/a.test.js:3:19)` or `at src/a.test.js:3:19`. */
const FRAME = /^\s+at (?:.*? \()?((?:file:\/\/)?[^\s()]+?):(\d+):(\d+)\)?\s*$/;

/** The first frame in `lines[from..to)` outside node_modules and runtime internals. */
export function firstFrame(
  lines: readonly string[],
  from: number,
  to: number,
): { file: string; line: number; column: number } | null {
  for (let i = from; i < to; i++) {
    const m = FRAME.exec(lines[i] as string);
    if (m === null) continue;
    const file = m[1] as string;
    if (file.includes("node_modules") || file.startsWith("node:") || file.startsWith("internal/"))
      continue;
    return { file, line: Number(m[2]), column: Number(m[3]) };
  }
  return null;
}
