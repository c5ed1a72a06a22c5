import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { CpilotError } from "../util/errors.ts";
import {
  codeFrame,
  jsonSyntaxError,
  type Position,
  positionAt,
  scriptErrorPosition,
} from "./syntax-error.ts";

/** A config that does not parse or load, as `file:line:col`, what is wrong, and the lines around it. */
export function syntaxError(
  path: string,
  text: string,
  kind: "json" | "yaml" | "script",
  err: unknown,
): CpilotError {
  const name = basename(path);
  let at: Position | null = null;
  let message = err instanceof Error ? err.message : String(err);
  let imported: string | null = null;
  if (kind === "json") {
    const found = jsonSyntaxError(text);
    if (found) {
      at = positionAt(text, found.offset);
      message = found.message;
    }
  } else if (kind === "yaml") {
    const yaml = err as { message?: string; linePos?: [{ line: number; col: number }] };
    message = (yaml.message ?? message).split("\n")[0] ?? message;
    const pos = yaml.linePos?.[0];
    if (pos) at = { line: pos.line, column: pos.col };
  } else {
    const found = scriptErrorPosition(err, path);
    if (found) {
      at = found.at;
      message = found.message;
      if (found.file !== undefined) imported = found.file;
    }
  }
  message = message.split("\n")[0] ?? message;
  const shownText = imported === null ? text : readOrEmpty(imported);
  const where = at ? `${imported ?? path}:${at.line}:${at.column}` : path;
  const frame = at && shownText !== "" ? `\n${codeFrame(shownText, at)}` : "";
  const verb = kind === "script" ? "load" : "parse";
  return new CpilotError(`Cannot ${verb} config "${name}": ${message}\n  at ${where}${frame}`, {
    hint:
      kind === "script"
        ? at
          ? imported !== null
            ? `fix ${imported} at the line shown (the config imports it)`
            : "fix the config at the line shown (it failed while it was imported)"
          : "the config failed while it was imported; check what it imports and runs at the top level"
        : `fix the ${kind === "json" ? "JSON" : "YAML"} at the line shown`,
    cause: err,
  });
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
