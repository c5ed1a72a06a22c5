import { int, type OutputParser, type RawDiagnostic } from "../parser.ts";
import { firstFrame } from "./test-runners/stack.ts";

// Python: `Traceback (most recent call last):`, frames `  File "a.py", line 2, in f`, then
// the exception: `NameError: name 'y' is not defined`. The innermost frame is the spot.
const FRAME = /^\s+File "(.+?)", line (\d+)/;
const EXCEPTION = /^(\w+(?:\.\w+)*): ?(.*)$/;

export const pythonTraceback: OutputParser = {
  name: "python-traceback",
  detect: (text) => text.includes("Traceback (most recent call last):"),
  parse(lines, claimed) {
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (claimed[i] || lines[i] !== "Traceback (most recent call last):") continue;
      let spot: RegExpExecArray | null = null;
      let j = i + 1;
      for (; j < lines.length; j++) {
        const line = lines[j] as string;
        const frame = FRAME.exec(line);
        if (frame !== null) spot = frame;
        else if (!/^\s/.test(line)) break;
      }
      const ex = EXCEPTION.exec(lines[j] ?? "");
      if (ex === null || spot === null) continue;
      for (let k = i; k <= j; k++) claimed[k] = 1;
      out.push({
        file: spot[1] as string,
        line: int(spot[2]),
        column: 0,
        severity: "error",
        code: ex[1] as string,
        message: `${ex[1]}${ex[2] ? `: ${ex[2]}` : ""}`,
        tool: "python",
      });
    }
    return out;
  },
};

// Node: the spot (`/a/b.js:2`), the code and a caret, a blank line, `ReferenceError: …`,
// then the stack, whose first frame of the program gives the column.
const NODE_SPOT = /^(\S+\.[cm]?[jt]sx?):(\d+)$/;
const NODE_ERROR = /^((?:\w+\.)*\w*(?:Error|Exception)\w*)(?: \[\w+\])?: (.*)$/;

/** An uncaught error that ended a Node.js (or Bun, Deno) program. */
export const nodeError: OutputParser = {
  name: "node-error",
  detect: (text) =>
    (text.includes("Error") || text.includes("Exception")) && /^\S+\.[cm]?[jt]sx?:\d+$/m.test(text),
  parse(lines, claimed) {
    const out: RawDiagnostic[] = [];
    for (let i = 0; i < lines.length; i++) {
      const spot = claimed[i] ? null : NODE_SPOT.exec(lines[i] as string);
      if (spot === null) continue;
      let j = i + 1;
      while (j < Math.min(lines.length, i + 8) && !NODE_ERROR.test(lines[j] as string)) j++;
      const error = NODE_ERROR.exec(lines[j] ?? "");
      if (error === null) continue;
      for (let k = i; k <= j; k++) claimed[k] = 1;
      const frame = firstFrame(lines, j + 1, Math.min(lines.length, j + 12));
      const sameFile = frame !== null && frame.file === spot[1] && frame.line === int(spot[2]);
      out.push({
        file: spot[1] as string,
        line: int(spot[2]),
        column: sameFile ? frame.column : 0,
        severity: "error",
        code: error[1] as string,
        message: `${error[1]}: ${error[2]}`,
        tool: "node",
      });
    }
    return out;
  },
};
