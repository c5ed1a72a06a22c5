/**
 * Attacks on what an agent is told is new: sequences of edits, driven through the compiled
 * binary as Claude Code drives it (a PostToolBatch on stdin), where an error the agent's
 * edit brought must never be filed under "already there" or left out.
 */
import { expect, test } from "bun:test";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contextOf, postBatch } from "../agents/claude/_helpers.ts";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo, tempDir } from "../helpers/tmp.ts";

const TSC = join(import.meta.dir, "..", "..", "node_modules", ".bin", "tsc");
const TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, noEmit: true },
  include: ["src"],
});
const BLOCKS = "checks failed after your last edits";

/** A committed project whose `tsc -p .` callback checks every file, whatever was edited. */
function tscProject(files: Record<string, string>): string {
  return committedRepo("cpilot-new-or-old-", {
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "types", pattern: "*.ts", run: `${TSC} -p .`, timeout: 120 }],
    }),
    "tsconfig.json": TSCONFIG,
    ...files,
  });
}

/** What the agent reads after a batch writing `files` (root-relative). */
function after(root: string, files: string[]): string {
  const payload = { session_id: "s1", cwd: root, ...postBatch(files.map((f) => join(root, f))) };
  const r = cpilot(["hook", "claude"], {
    cwd: root,
    env: { AI_AGENT: "claude-code_2-1-330_cli" },
    input: JSON.stringify(payload),
  });
  expect(r.stderr).toBe("");
  return r.stdout.trim() === "" ? "" : contextOf(JSON.parse(r.stdout));
}

/** A real checker: every BAD in a .txt is an error, printed file after file. */
const BAD_RUN = `grep -n -H -o BAD *.txt | sed -E 's/^([^:]+):([0-9]+):BAD$/\\1:\\2:1: error: the word is banned [bad]/'; exit 1`;
/** 1,500 old errors: past what a hook call reads (1,000). */
const OLD = Array.from({ length: 1500 }, (_, i) => `BAD ${i + 1}`).join("\n");

/** A committed project of `files` checked by BAD_RUN. */
function denseProject(files: Record<string, string>): string {
  return committedRepo("cpilot-new-or-old-", {
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "bad", pattern: "*.txt", run: BAD_RUN, timeout: 60 }],
    }),
    ...files,
  });
}

const A = "export function f(a: number): number {\n  return a;\n}\n";
const B = 'import { f } from "./a";\nexport const x = f(1);\n';
const A_TWO_ARGS = "export function f(a: number, b: number): number {\n  return a + b;\n}\n";
const B_ERROR = "src/b.ts:2:18 error TS2554: Expected 2 arguments, but got 1.";

test("an edit to a.ts that breaks b.ts (not edited, committed, checked clean before) is the agent's, and stays so", () => {
  const root = tscProject({ "src/a.ts": A, "src/b.ts": B });
  writeFileSync(join(root, "src/a.ts"), `// a comment\n${A}`);
  expect(after(root, ["src/a.ts"])).not.toContain("✗");
  writeFileSync(join(root, "src/a.ts"), A_TWO_ARGS);
  const told = after(root, ["src/a.ts"]);
  expect(told).toContain(BLOCKS);
  expect(told).toContain(B_ERROR);
  expect(told).not.toContain("already there");
  // Another edit of a.ts that fixes nothing: b.ts's error is still the agent's.
  writeFileSync(join(root, "src/a.ts"), `// again\n${A_TWO_ARGS}`);
  const again = after(root, ["src/a.ts"]);
  expect(again).toContain(BLOCKS);
  expect(again).toContain(B_ERROR);
  expect(again).not.toContain("already there");
}, 120_000);

test("the first hook call in a project: an error in a file the agent did not edit is not claimed to predate the edit", () => {
  const root = tscProject({ "src/a.ts": A, "src/b.ts": B });
  writeFileSync(join(root, "src/a.ts"), A_TWO_ARGS);
  const told = after(root, ["src/a.ts"]);
  expect(told).toContain(BLOCKS);
  expect(told).toContain(B_ERROR);
  expect(told).not.toContain("already there before your edit");
  // Told once; the next call informs (it does not block again), and still claims nothing.
  writeFileSync(join(root, "src/a.ts"), `// again\n${A_TWO_ARGS}`);
  const again = after(root, ["src/a.ts"]);
  expect(again).not.toContain(BLOCKS);
  expect(again).toContain(B_ERROR);
  expect(again).not.toContain("already there before your edit");
}, 120_000);

test("a dense output cut at 1,000 diagnostics, all old, with the agent's new error past the cut: told, and it blocks", () => {
  // old.txt is printed before z.txt.
  const root = denseProject({
    "old.txt": `${OLD}\n`,
    "z.txt": "fine\n",
  });
  writeFileSync(join(root, "z.txt"), "fine again\n");
  after(root, ["z.txt"]);
  writeFileSync(join(root, "z.txt"), "BAD mine\n");
  const told = after(root, ["z.txt"]);
  expect(told).toContain(BLOCKS);
  expect(told).toContain("z.txt:1:1 error bad: the word is banned");
  // Fixed: the project is as in HEAD again, which holds the 1,500: old, they do not block.
  writeFileSync(join(root, "z.txt"), "fine\n");
  const fixed = after(root, ["z.txt"]);
  expect(fixed).not.toContain(BLOCKS);
  expect(fixed).toContain("all 1500 diagnostics were already there before your edit");
}, 120_000);

test("the agent's error past the cut of a dense file stays its own when a later edit elsewhere reads only the cut", () => {
  const root = denseProject({
    "old.txt": `${OLD}\n`,
    "z.txt": "fine\n",
  });
  writeFileSync(join(root, "z.txt"), "fine again\n");
  after(root, ["z.txt"]);
  // The agent adds an error at the end of old.txt, line 1,501, past any hook call's cut.
  writeFileSync(join(root, "old.txt"), `${OLD}\nBAD mine\n`);
  expect(after(root, ["old.txt"])).toContain("old.txt:1501:1 error bad");
  // An edit elsewhere: the error in old.txt is still the agent's.
  writeFileSync(join(root, "z.txt"), "fine once more\n");
  const told = after(root, ["z.txt"]);
  expect(told).toContain(BLOCKS);
  expect(told).toContain("old.txt:1501:1 error bad");
}, 120_000);

test("the agent's error past a dense file's cut stays its own through a call that read a new error before the cut", () => {
  const root = denseProject({
    "a.txt": "fine\n",
    "old.txt": `${OLD}\n`,
  });
  writeFileSync(join(root, "a.txt"), "fine again\n");
  after(root, ["a.txt"]);
  writeFileSync(join(root, "old.txt"), `${OLD}\nBAD mine\n`);
  expect(after(root, ["old.txt"])).toContain("old.txt:1501:1 error bad");
  // A new error in a.txt, printed first: this call reads a.txt's and old.txt's first 999.
  writeFileSync(join(root, "a.txt"), "BAD too\n");
  expect(after(root, ["a.txt"])).toContain("a.txt:1:1 error bad");
  // a.txt fixed: old.txt's line 1,501 is still the agent's.
  writeFileSync(join(root, "a.txt"), "fine\n");
  const told = after(root, ["a.txt"]);
  expect(told).toContain(BLOCKS);
  expect(told).toContain("old.txt:1501:1 error bad");
}, 120_000);

test("an error added past a dense file's cut outside the edit tool (a shell command) is not taken for old", () => {
  const root = denseProject({
    "a.txt": "fine\n",
    "old.txt": `${OLD}\n`,
  });
  // A new error in a.txt, printed first: this call reads old.txt's first 999 only.
  writeFileSync(join(root, "a.txt"), "BAD too\n");
  expect(after(root, ["a.txt"])).toContain("a.txt:1:1 error bad");
  // The agent fixes a.txt, and a command of its own appends an error to old.txt.
  writeFileSync(join(root, "old.txt"), `${OLD}\nBAD by sed\n`);
  writeFileSync(join(root, "a.txt"), "fine\n");
  // No run ever read old.txt as committed whole: none of its 1,501 is known old, and the
  // failure blocks.
  const told = after(root, ["a.txt"]);
  expect(told).toContain(BLOCKS);
  expect(told).toContain("1501 diagnostics in files you did not edit");
  expect(told).not.toContain("already there");
}, 120_000);

test("an edit to one line of a file never seen with errors that breaks another, unchanged line of it: the agent's", () => {
  const root = tscProject({
    "src/a.ts": "export const x: number = 1;\nexport const y: number = x;\n",
    "src/b.ts": "export const z = 1;\n",
  });
  // A clean run of the whole project first (an edit elsewhere).
  writeFileSync(join(root, "src/b.ts"), "export const z = 2;\n");
  expect(after(root, ["src/b.ts"])).not.toContain("✗");
  // Line 1 changes; the error is on line 2, as in the last commit.
  writeFileSync(
    join(root, "src/a.ts"),
    'export const x: string = "1";\nexport const y: number = x;\n',
  );
  const told = after(root, ["src/a.ts"]);
  expect(told).toContain(BLOCKS);
  expect(told).toContain("src/a.ts:2:14 error TS2322");
  expect(told).not.toContain("already there");
}, 120_000);

test("a baseline cut short, or of another version, loses no error of the agent's in a file it did not edit: the failure still blocks", () => {
  for (const spoil of [
    (b: Buffer) => b.subarray(0, b.length - 9),
    (b: Buffer) => Buffer.concat([Buffer.from("cpbl"), Buffer.from([99]), b.subarray(5)]),
  ]) {
    const root = tscProject({ "src/a.ts": A, "src/b.ts": B });
    writeFileSync(join(root, "src/a.ts"), `// a comment\n${A}`);
    after(root, ["src/a.ts"]);
    writeFileSync(join(root, "src/a.ts"), A_TWO_ARGS);
    expect(after(root, ["src/a.ts"])).toContain(B_ERROR);
    const saved = join(root, ".cpilot", "baseline", "types.bin");
    writeFileSync(saved, spoil(readFileSync(saved)));
    writeFileSync(join(root, "src/a.ts"), `// again\n${A_TWO_ARGS}`);
    const told = after(root, ["src/a.ts"]);
    expect(told).toContain(BLOCKS);
    expect(told).toContain(B_ERROR);
    expect(told).not.toContain("already there");
  }
}, 120_000);

test("a checker that prints paths through a symlink to the project: old errors stay old, the agent's are its edit's", () => {
  const root = committedRepo("cpilot-new-or-old-", { "old.txt": "BAD old\n", "z.txt": "fine\n" });
  const link = join(tempDir("cpilot-link-"), "project");
  symlinkSync(root, link);
  const run = `grep -n -H -o BAD ${link}/*.txt | sed -E 's/^([^:]+):([0-9]+):BAD$/\\1:\\2:1: error: the word is banned [bad]/'; exit 1`;
  writeFileSync(
    join(root, "callbacks.config.json"),
    JSON.stringify({ callbacks: [{ name: "bad", pattern: "*.txt", run, timeout: 60 }] }),
  );
  writeFileSync(join(root, "z.txt"), "fine again\n");
  after(root, ["z.txt"]);
  writeFileSync(join(root, "z.txt"), "BAD mine\n");
  const told = after(root, ["z.txt"]);
  expect(told).toContain(BLOCKS);
  expect(told).toContain("  z.txt:1:1 error bad: the word is banned");
  // old.txt, seen first as in the last commit: unverified, not new (it was told forever).
  expect(told).toContain("1 diagnostic in files you did not edit");
  expect(told).toContain("  old.txt:1:1 error bad");
  expect(told).not.toContain(link);
}, 120_000);
