/**
 * Property: over any sequence of agent edits, the person's edits, reverts, checks, stashes and commits, no error
 * the agent brought is ever called old. "Old" may only answer for a line HEAD's content of
 * the file holds: no more diagnostics of one text are old than HEAD's file has lines of it.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { committedRepo } from "../helpers/tmp.ts";
import { badWords, check, git } from "./_content-checker.ts";

const FILES = ["a.txt", "b.txt"];
/** Few texts, so the same line comes back (the stale-record sequence). */
const TEXTS = ["BAD x", "BAD y", "fine", "also fine"];

type Step =
  | { kind: "edit"; file: number; at: number; text: number }
  | { kind: "userEdit"; file: number; at: number; text: number }
  | { kind: "drop"; file: number; at: number }
  | { kind: "revert"; file: number }
  | { kind: "check" }
  | { kind: "checkOne"; file: number }
  | { kind: "commit" }
  | { kind: "stash" }
  | { kind: "pop" };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant("edit" as const),
    file: fc.nat(1),
    at: fc.nat(4),
    text: fc.nat(3),
  }),
  fc.record({
    kind: fc.constant("edit" as const),
    file: fc.nat(1),
    at: fc.nat(4),
    text: fc.nat(3),
  }),
  fc.record({
    kind: fc.constant("userEdit" as const),
    file: fc.nat(1),
    at: fc.nat(4),
    text: fc.nat(3),
  }),
  fc.record({ kind: fc.constant("drop" as const), file: fc.nat(1), at: fc.nat(4) }),
  fc.record({ kind: fc.constant("revert" as const), file: fc.nat(1) }),
  fc.constant({ kind: "check" as const }),
  fc.record({ kind: fc.constant("checkOne" as const), file: fc.nat(1) }),
  fc.constant({ kind: "commit" as const }),
  fc.constant({ kind: "stash" as const }),
  fc.constant({ kind: "pop" as const }),
);

function lines(root: string, file: string): string[] {
  const path = join(root, file);
  return existsSync(path) ? readFileSync(path, "utf8").split("\n").slice(0, -1) : [];
}

function headLines(root: string, file: string): string[] {
  try {
    return git(root, "show", `HEAD:${file}`).split("\n").slice(0, -1);
  } catch {
    return [];
  }
}

function count(list: readonly string[], text: string): number {
  return list.filter((l) => l === text).length;
}

/** A checker that stops at the first file with an error, as rustc stops at a failing crate. */
function stoppedAt(root: string, files: readonly string[]) {
  for (const file of files) {
    const found = badWords(root, [file], "rustc");
    if (found.length > 0) return found;
  }
  return [];
}

function play(whole: boolean, steps: readonly Step[], stops = false): void {
  const root = committedRepo("cpilot-property-", { "a.txt": "BAD x\nfine\n", "b.txt": "fine\n" });
  const run = (files: readonly string[], edited?: readonly string[]) =>
    check(root, files, {
      whole,
      ...(edited ? { edited } : {}),
      ...(stops ? { tool: "rustc", diagnostics: stoppedAt(root, files) } : {}),
    });
  for (const s of steps) {
    if (s.kind === "check") run(FILES);
    else if (s.kind === "checkOne") run([FILES[s.file] as string]);
    else if (s.kind === "commit") git(root, "commit", "-qam", "step", "--allow-empty");
    else if (s.kind === "stash") git(root, "stash", "-q");
    else if (s.kind === "pop") {
      try {
        git(root, "stash", "pop", "-q");
      } catch {
        git(root, "checkout", "--", ".");
      }
    } else if (s.kind === "revert") git(root, "checkout", "--", FILES[s.file] as string);
    else {
      const file = FILES[s.file] as string;
      const now = lines(root, file);
      const at = Math.min(s.at, now.length);
      if (s.kind === "drop") now.splice(at, 1);
      else now.splice(at, 0, TEXTS[s.text] as string);
      writeFileSync(join(root, file), now.map((l) => `${l}\n`).join(""));
      // The person's edit: no hook call (a check or a commit may follow).
      if (s.kind === "userEdit") continue;
      // The agent's hook call after its edit.
      const marked = run(FILES, [file]);
      for (const f of FILES) {
        const current = lines(root, f);
        const head = headLines(root, f);
        for (const text of new Set(current)) {
          const old = marked.filter(
            (d) => d.file === f && d.baseline === "unchanged" && current[d.line - 1] === text,
          ).length;
          const toldOld = marked.filter(
            (d) =>
              d.file === f &&
              d.baseline === "unchanged" &&
              (d.since === "run" || d.since === "commit") &&
              current[d.line - 1] === text,
          ).length;
          // Known old: never more than HEAD holds.
          expect(toldOld).toBeLessThanOrEqual(count(head, text));
          // Whatever the verdict, each one is accounted for once.
          expect(old).toBeLessThanOrEqual(count(current, text));
        }
      }
    }
  }
}

for (const whole of [false, true])
  for (const stops of [false, true])
    test(`no sequence of edits, reverts, checks, stashes and commits calls the agent's error old (${whole ? "whole project" : "per file"}${stops ? ", a checker that stops at its first failing file" : ""})`, () => {
      fc.assert(
        fc.property(fc.array(step, { minLength: 1, maxLength: 10 }), (steps) =>
          play(whole, steps, stops),
        ),
        { numRuns: 12 },
      );
    }, 300_000);
