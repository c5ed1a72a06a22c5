// An in-process checker over real files for the new-or-old tests: every line holding BAD
// is an error, as a linter would report it, with git driven for real around it.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compareWithBaseline, type ReadBefore } from "../../src/diagnostics/baseline/compare.ts";
import type { Diagnostic } from "../../src/model/diagnostic.ts";

/** The errors a BAD-word checker reports for `files` as they are on disk. */
export function badWords(root: string, files: readonly string[], tool = "lint"): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(join(root, file), "utf8");
    } catch {
      continue;
    }
    text.split("\n").forEach((line, i) => {
      if (line.includes("BAD"))
        out.push({
          file,
          line: i + 1,
          column: 1,
          severity: "error",
          code: "bad",
          message: "the word is banned",
          tool,
        });
    });
  }
  return out;
}

export interface CheckOptions {
  /** The files the agent just edited (a hook call); none for `cpilot check`. */
  readonly edited?: readonly string[];
  readonly whole?: boolean;
  readonly failed?: boolean;
  readonly partial?: boolean;
  readonly tool?: string;
  /** What the run reports; default every BAD in `files`. */
  readonly diagnostics?: Diagnostic[];
  /** The content the run read, taken before it (see compare.ts). */
  readonly readBefore?: ReadBefore;
}

/** One run of the checker over `files`, compared and recorded as the engine does. */
export function check(root: string, files: readonly string[], options: CheckOptions = {}) {
  const edited = options.edited ?? [];
  const diagnostics = options.diagnostics ?? badWords(root, files, options.tool);
  return compareWithBaseline({
    root,
    callback: "lint",
    definition: "d".repeat(40),
    diagnostics,
    files,
    edited: new Set(edited),
    fromCheck: options.edited === undefined,
    checksWholeProject: options.whole === true,
    failed: options.failed ?? diagnostics.some((d) => d.severity === "error"),
    partial: options.partial === true,
    ...(options.readBefore ? { readBefore: options.readBefore } : {}),
  });
}

/** `git ...` in `root`, its output. */
export function git(root: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Each diagnostic as "file:line new|old|unverified". */
export function verdicts(ds: readonly Diagnostic[]): string[] {
  return ds.map((d) => {
    const v =
      d.baseline === "new"
        ? "new"
        : d.since === "unverified" || d.since === "unverified-told"
          ? "unverified"
          : "old";
    return `${d.file}:${d.line} ${v}`;
  });
}
