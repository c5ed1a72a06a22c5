import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CallbackDef } from "../../src/config/types.ts";
import { compareWithBaseline } from "../../src/diagnostics/baseline/compare.ts";
import { MAX_ENTRIES, readBaseline, STRIDE } from "../../src/diagnostics/baseline/store.ts";
import { createEngine } from "../../src/engine/engine.ts";
import type { EditBatch } from "../../src/model/batch.ts";
import type { Diagnostic } from "../../src/model/diagnostic.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

// A real checker: every line holding BAD is an error, printed in the GNU shape gcc uses.
const CHECKER: CallbackDef = {
  name: "bad-words",
  pattern: "*.txt",
  run: `grep -n -H -o BAD *.txt src/*.txt 2>/dev/null | sed -E 's/^([^:]+):([0-9]+):BAD$/\\1:\\2:1: error: the word is banned [bad]/'; exit 1`,
  timeout: 20,
};

function hookBatch(root: string, paths: string[], surface: "hook" | "check" = "hook"): EditBatch {
  return {
    root,
    files: paths.map((path) => ({ path, kind: "modified" as const })),
    origin: surface === "hook" ? { surface, agent: "claude", session: "s1" } : { surface },
  };
}

async function runOnce(root: string, paths: string[], surface: "hook" | "check" = "hook") {
  const engine = createEngine({ root, config: { callbacks: [CHECKER] } });
  const outcome = await engine.run(hookBatch(root, paths, surface));
  return (outcome.runs[0]?.diagnostics ?? []) as Diagnostic[];
}

const shown = (ds: readonly Diagnostic[]) =>
  ds.map((d) => `${d.file}:${d.line} ${d.baseline ?? "-"}${d.since ? `/${d.since}` : ""}`);

function repo(files: Record<string, string>): string {
  const root = tempDir("cpilot-baseline-", { git: true });
  writeFiles(root, files);
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", "start"], { cwd: root });
  return root;
}

test("what was there before the edit stays old through line shifts; what the edit brought stays new", async () => {
  const root = repo({ "src/a.txt": "one\nBAD old\nthree\n", "src/b.txt": "BAD elsewhere\n" });
  // First edit: three lines added on top, one of them BAD. No run yet: the commit decides.
  writeFileSync(join(root, "src/a.txt"), "BAD new\nx\ny\none\nBAD old\nthree\n");
  expect(shown(await runOnce(root, ["src/a.txt"]))).toEqual([
    "src/a.txt:1 new",
    "src/a.txt:5 unchanged/commit",
    // not edited, never seen, as in the last commit, no run before: most likely there
    // before this session's edits, but not known (a change elsewhere may have brought it)
    "src/b.txt:1 unchanged/unverified",
  ]);
  // Second edit: two more lines on top shift everything; the last run is the baseline now.
  writeFileSync(join(root, "src/a.txt"), "p\nq\nBAD new\nx\ny\none\nBAD old\nthree\n");
  expect(shown(await runOnce(root, ["src/a.txt"]))).toEqual([
    "src/a.txt:3 new", // the agent's own, still not fixed
    "src/a.txt:7 unchanged/run",
    "src/b.txt:1 unchanged/unverified-told", // not known either way: told, not blocking
  ]);
  // A new BAD on a line the agent rewrote is new, however many BADs there were before.
  writeFileSync(join(root, "src/a.txt"), "p\nq\nBAD new\nx\nBAD y\none\nBAD old\nthree\n");
  const third = shown(await runOnce(root, ["src/a.txt"]));
  expect(third).toContain("src/a.txt:5 new");
  expect(third).toContain("src/a.txt:7 unchanged/run");
});

test("cpilot check marks nothing and records what it finds as already there", async () => {
  const root = repo({ "src/a.txt": "BAD one\n" });
  expect(shown(await runOnce(root, ["src/a.txt"], "check"))).toEqual(["src/a.txt:1 -"]);
  writeFileSync(join(root, "src/a.txt"), "added\nBAD one\n");
  expect(shown(await runOnce(root, ["src/a.txt"]))).toEqual(["src/a.txt:2 unchanged/run"]);
});

test("a baseline that cannot be saved costs nothing: diagnostics still come back", async () => {
  const root = repo({ "src/a.txt": "BAD one\n" });
  mkdirSync(join(root, ".cpilot"), { recursive: true });
  writeFileSync(join(root, ".cpilot", "baseline"), "a file where the folder should be");
  expect(shown(await runOnce(root, ["src/a.txt"]))).toEqual(["src/a.txt:1 unchanged/commit"]);
  rmSync(join(root, ".cpilot", "baseline"));
  // A symlinked state folder is not followed.
  const elsewhere = tempDir("cpilot-elsewhere-");
  execFileSync("ln", ["-s", elsewhere, join(root, ".cpilot", "baseline")]);
  expect(shown(await runOnce(root, ["src/a.txt"]))).toEqual(["src/a.txt:1 unchanged/commit"]);
  expect(execFileSync("ls", ["-A", elsewhere]).toString()).toBe("");
});

test("runs of one callback that save its baseline at the same time lose none of each other's files", async () => {
  // overlap: "parallel" (or several agents) lets runs of one callback finish together, in
  // processes of their own: each saves the baseline it read, plus its own files.
  const root = tempDir("cpilot-baseline-race-");
  const files = ["a.txt", "b.txt", "c.txt", "d.txt"];
  writeFiles(root, Object.fromEntries(files.map((f) => [f, "BAD\n".repeat(3000)])));
  const go = join(root, "go");
  const recorders = files.map((file) =>
    Bun.spawn([process.execPath, join(import.meta.dir, "_baseline-recorder.ts"), root, file, go], {
      stderr: "inherit",
    }),
  );
  // All loaded first: then they save within a millisecond of one another.
  while (!files.every((f) => existsSync(join(root, `${f}.ready`)))) await Bun.sleep(5);
  writeFileSync(go, "");
  expect(await Promise.all(recorders.map((p) => p.exited))).toEqual([0, 0, 0, 0]);
  // Every file was recorded as it is: nothing in it is new to a later run.
  for (const file of files) {
    const again = compareWithBaseline({
      root,
      callback: "lint",
      diagnostics: [
        {
          file,
          line: 7,
          column: 1,
          severity: "error",
          code: "bad",
          message: "the word is banned (6)",
          tool: "compiler",
        },
      ],
      files: [file],
      edited: new Set(),
      fromCheck: false,
    });
    expect(`${file} ${again[0]?.baseline}`).toBe(`${file} unchanged`);
  }
}, 60_000);

test("a project reached through a symlink keeps its baseline", () => {
  const real = tempDir("cpilot-baseline-real-");
  writeFiles(real, { "a.txt": "BAD\n" });
  const root = join(tempDir("cpilot-baseline-link-"), "project");
  execFileSync("ln", ["-s", real, root]);
  const d: Diagnostic = {
    file: "a.txt",
    line: 1,
    column: 1,
    severity: "error",
    code: "bad",
    message: "the word is banned",
    tool: "compiler",
  };
  const input = {
    root,
    callback: "lint",
    diagnostics: [d],
    files: ["a.txt"],
    edited: new Set<string>(),
  };
  compareWithBaseline({ ...input, fromCheck: true });
  expect(compareWithBaseline({ ...input, fromCheck: false })[0]?.baseline).toBe("unchanged");
});

// The comparison's loop computes each fingerprint and line hash inline (no call per
// diagnostic): what makes a diagnostic "the same one" must not change with it.
const diag = (line: number, code: string): Diagnostic => ({
  file: "a.txt",
  line,
  column: 1,
  severity: "error",
  code,
  message: "the same words",
  tool: "compiler",
});

test("a diagnostic whose code changed is new, even beside one of the same tool and message", () => {
  const root = tempDir("cpilot-baseline-code-");
  writeFiles(root, { "a.txt": "one\ntwo\n" });
  const input = { root, callback: "lint", files: ["a.txt"], edited: new Set<string>() };
  compareWithBaseline({ ...input, diagnostics: [diag(1, "E1"), diag(2, "E2")], fromCheck: true });
  const again = compareWithBaseline({
    ...input,
    diagnostics: [diag(1, "E1"), diag(2, "E3")],
    fromCheck: false,
  });
  expect(again.map((d) => d.baseline)).toEqual(["unchanged", "new"]);
});

test("a diagnostic on a line the edit rewrote is new; on its untouched neighbour, old", () => {
  const root = tempDir("cpilot-baseline-text-");
  writeFiles(root, { "a.txt": "one\ntwo\nthree\n" });
  const input = { root, callback: "lint", files: ["a.txt"], edited: new Set<string>() };
  compareWithBaseline({ ...input, diagnostics: [diag(1, "E1"), diag(2, "E1")], fromCheck: true });
  writeFiles(root, { "a.txt": "one\nTWO, rewritten\nthree\n" });
  const again = compareWithBaseline({
    ...input,
    diagnostics: [diag(1, "E1"), diag(2, "E1")],
    fromCheck: false,
  });
  expect(again.map((d) => d.baseline)).toEqual(["unchanged", "new"]);
});

const banned = (file: string, line: number): Diagnostic => ({
  file,
  line,
  column: 1,
  severity: "error",
  code: "bad",
  message: "the word is banned",
  tool: "gnu",
});

/** A saved file's record as [key, line] pairs; the partial mark shows as key -1. */
function record(root: string, callback: string, file: string): number[][] | undefined {
  const e = readBaseline(root, callback).get(file)?.e;
  if (e === undefined) return undefined;
  const pairs: number[][] = [];
  for (let i = 0; i < e.length; i += STRIDE)
    pairs.push([(e[i] as number) === -1 ? -1 : 1, e[i + 1] as number]);
  return pairs;
}

test("part of an output (a limit): files read whole are saved as they are, the last one and any of an output where files come back marked partial, none recorded clean", () => {
  const root = repo({ "src/a.txt": "x\n" });
  const input = {
    root,
    callback: "grouped",
    files: ["src/a.txt", "src/b.txt", "src/c.txt"],
    edited: new Set<string>(),
    fromCheck: false,
    partial: true,
  };
  // Grouped by file (as tsc prints): a.txt came whole before b.txt, the last read.
  const d = banned;
  compareWithBaseline({
    ...input,
    diagnostics: [d("src/a.txt", 1), d("src/a.txt", 2), d("src/b.txt", 1)],
  });
  expect(record(root, "grouped", "src/a.txt")).toEqual([
    [1, 1],
    [1, 2],
  ]);
  expect(record(root, "grouped", "src/b.txt")).toEqual([
    [1, 1],
    [-1, -1],
  ]);
  expect(record(root, "grouped", "src/c.txt")).toBeUndefined();
  // A file that comes back (two tools' sections): any file may go on past the cut.
  compareWithBaseline({
    ...input,
    callback: "interleaved",
    diagnostics: [d("src/a.txt", 1), d("src/b.txt", 1), d("src/a.txt", 2)],
  });
  expect(record(root, "interleaved", "src/a.txt")).toEqual([
    [1, 1],
    [1, 2],
    [-1, -1],
  ]);
  expect(record(root, "interleaved", "src/b.txt")).toEqual([
    [1, 1],
    [-1, -1],
  ]);
});

test("past a partial record's cut: in a file the agent did not edit, not known (unverified); in one it edited, the commit decides", () => {
  const root = repo({ "src/a.txt": "BAD 1\nBAD 2\nBAD 3\n", "src/b.txt": "BAD 1\nBAD 2\nBAD 3\n" });
  const base = { root, callback: "cut", fromCheck: false, files: ["src/a.txt", "src/b.txt"] };
  const d = banned;
  // A first check read one diagnostic of each (each file the last one read in its run).
  for (const file of ["src/a.txt", "src/b.txt"])
    compareWithBaseline({
      ...base,
      fromCheck: true,
      edited: new Set(),
      diagnostics: [d(file, 1)],
      partial: true,
    });
  // The agent adds a BAD line at the end of a.txt; a run now reads every line.
  writeFileSync(join(root, "src/a.txt"), "BAD 1\nBAD 2\nBAD 3\nBAD 4\n");
  const all = [1, 2, 3, 4]
    .map((n) => d("src/a.txt", n))
    .concat([1, 2, 3].map((n) => d("src/b.txt", n)));
  expect(
    shown(compareWithBaseline({ ...base, edited: new Set(["src/a.txt"]), diagnostics: all })),
  ).toEqual([
    "src/a.txt:1 unchanged/run",
    "src/a.txt:2 unchanged/commit",
    "src/a.txt:3 unchanged/commit",
    "src/a.txt:4 new",
    "src/b.txt:1 unchanged/run",
    "src/b.txt:2 unchanged/unverified",
    "src/b.txt:3 unchanged/unverified",
  ]);
  // Read whole this time, but the edit brought an error (a.txt:4), which may have stopped a
  // compiler before its later passes: the records stay partial.
  expect(record(root, "cut", "src/b.txt")).toEqual([
    [1, 1],
    [1, 2],
    [1, 3],
    [-1, -1],
  ]);
  // The error fixed, read whole: the records are complete, the partial marks gone.
  writeFileSync(join(root, "src/a.txt"), "BAD 1\nBAD 2\nBAD 3\n");
  compareWithBaseline({
    ...base,
    edited: new Set(["src/a.txt"]),
    diagnostics: all.slice(0, 3).concat(all.slice(4)),
  });
  expect(record(root, "cut", "src/b.txt")).toEqual([
    [1, 1],
    [1, 2],
    [1, 3],
  ]);
});

test("a failed run whose only diagnostic names no file (a tool's config error) does not record its files as clean", async () => {
  const root = repo({ "src/a.txt": "BAD one\nBAD two\n" });
  const globalError: CallbackDef = {
    name: "bad-words",
    pattern: "*.txt",
    run: 'echo "error TS5112: tsconfig.json is present but will not be loaded"; exit 1',
    timeout: 20,
  };
  const engine = createEngine({ root, config: { callbacks: [globalError] } });
  await engine.run(hookBatch(root, ["src/a.txt"]));
  // The agent adds a line on top: what was on the committed lines was there before.
  writeFileSync(join(root, "src/a.txt"), "BAD added\nBAD one\nBAD two\n");
  expect(shown(await runOnce(root, ["src/a.txt"]))).toEqual([
    "src/a.txt:1 new",
    "src/a.txt:2 unchanged/commit",
    "src/a.txt:3 unchanged/commit",
  ]);
});

test("a run over more files than a baseline keeps records none of them clean (they would push each other out on every run)", () => {
  const root = repo({ "src/a.txt": "x\n" });
  const files = Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => `src/f${i}.txt`);
  const input = { root, files, edited: new Set<string>(), fromCheck: true };
  compareWithBaseline({ ...input, callback: "huge-clean", diagnostics: [] });
  expect(existsSync(join(root, ".cpilot", "baseline", "huge-clean.bin"))).toBe(false);
  compareWithBaseline({ ...input, callback: "huge", diagnostics: [banned("src/f7.txt", 1)] });
  expect(record(root, "huge", "src/f7.txt")).toEqual([[1, 1]]);
  expect(record(root, "huge", "src/f8.txt")).toBeUndefined();
  // Within the bound, clean files are recorded as before.
  compareWithBaseline({ ...input, files: files.slice(0, 3), callback: "few", diagnostics: [] });
  expect(readBaseline(root, "few").get("src/f1.txt")?.e.length).toBe(0);
});

test("an edit that only moves diagnostics down leaves the saved baseline as it is, and they stay old", async () => {
  const root = repo({ "src/a.txt": "one\nBAD old\nthree\nBAD older\n" });
  await runOnce(root, ["src/a.txt"]);
  const path = join(root, ".cpilot", "baseline", "bad-words.bin");
  const stamp = () => {
    const st = statSync(path);
    return `${st.ino} ${st.mtimeMs}`;
  };
  const saved = stamp();
  for (const top of ["x\n", "x\ny\n"]) {
    writeFileSync(join(root, "src/a.txt"), `${top}one\nBAD old\nthree\nBAD older\n`);
    const lines = top.split("\n").length - 1;
    expect(shown(await runOnce(root, ["src/a.txt"]))).toEqual([
      `src/a.txt:${2 + lines} unchanged/run`,
      `src/a.txt:${4 + lines} unchanged/run`,
    ]);
    expect(stamp()).toBe(saved);
  }
  // A new one is saved.
  writeFileSync(join(root, "src/a.txt"), "x\ny\none\nBAD old\nthree\nBAD older\nBAD new\n");
  expect(shown(await runOnce(root, ["src/a.txt"])).at(-1)).toBe("src/a.txt:7 new");
  expect(stamp()).not.toBe(saved);
});

test("a file the agent did not edit, seen for the first time before any run read whole: as in the last commit, unverified; changed since or untracked, new", async () => {
  const root = repo({ "src/a.txt": "x\n", "src/same.txt": "BAD same\n", "src/moved.txt": "ok\n" });
  writeFileSync(join(root, "src/moved.txt"), "BAD changed since the commit\n");
  writeFileSync(join(root, "src/new.txt"), "BAD untracked\n");
  writeFileSync(join(root, "src/a.txt"), "y\n");
  expect(shown(await runOnce(root, ["src/a.txt"])).sort()).toEqual([
    "src/moved.txt:1 new",
    "src/new.txt:1 new",
    "src/same.txt:1 unchanged/unverified",
  ]);
});

test("once a run was read whole, a file it did not name that has diagnostics now is new, however unchanged since the commit (an edit elsewhere brought them)", async () => {
  const root = repo({ "src/a.txt": "BAD x\n", "src/b.txt": "fine\n" });
  // A run read whole, whose edit brought no error (this checker always fails: one with no
  // diagnostic is not compared; one whose edit brought an error may have stopped early).
  writeFileSync(join(root, "src/a.txt"), "BAD x\ny\n");
  expect(shown(await runOnce(root, ["src/a.txt"]))).toEqual(["src/a.txt:1 unchanged/commit"]);
  // b.txt gets a BAD and is committed as such (a stand-in for a file whose error comes from
  // an edit elsewhere: as in the last commit, but not as the last run saw the project).
  writeFileSync(join(root, "src/b.txt"), "BAD now\n");
  execFileSync("git", ["commit", "-qam", "b"], { cwd: root });
  writeFileSync(join(root, "src/a.txt"), "BAD x\nz\n");
  expect(shown(await runOnce(root, ["src/a.txt"]))).toEqual([
    "src/a.txt:1 unchanged/run",
    "src/b.txt:1 new",
  ]);
  // And it stays the agent's until it is gone.
  writeFileSync(join(root, "src/a.txt"), "BAD x\nw\n");
  expect(shown(await runOnce(root, ["src/a.txt"]))).toEqual([
    "src/a.txt:1 unchanged/run",
    "src/b.txt:1 new",
  ]);
});

test("after a run read whole, a file with no record: new for a checker of the whole project; unverified for one given its files (it may not have reached it)", () => {
  for (const checksWholeProject of [true, false]) {
    const root = repo({ "src/a.txt": "BAD\n", "src/b.txt": "BAD old\n" });
    const base = {
      root,
      callback: "c",
      fromCheck: false,
      files: ["src/a.txt"],
      edited: new Set(["src/a.txt"]),
      checksWholeProject,
    };
    compareWithBaseline({ ...base, diagnostics: [banned("src/a.txt", 1)] });
    const now = compareWithBaseline({
      ...base,
      diagnostics: [banned("src/a.txt", 1), banned("src/b.txt", 1)],
    });
    expect(shown(now)).toEqual([
      "src/a.txt:1 unchanged/run",
      checksWholeProject ? "src/b.txt:1 new" : "src/b.txt:1 unchanged/unverified",
    ]);
  }
});

test("a partial record carries past its cut what was unverified: read again later, still not claimed to be there before", () => {
  const root = repo({ "src/a.txt": "x\n", "src/b.txt": "BAD 1\nBAD 2\nBAD 3\n" });
  const base = {
    root,
    callback: "carry",
    fromCheck: false,
    files: ["src/a.txt"],
    edited: new Set(["src/a.txt"]),
  };
  const all = [1, 2, 3].map((n) => banned("src/b.txt", n));
  expect(shown(compareWithBaseline({ ...base, diagnostics: all }))).toEqual([
    "src/b.txt:1 unchanged/unverified",
    "src/b.txt:2 unchanged/unverified",
    "src/b.txt:3 unchanged/unverified",
  ]);
  compareWithBaseline({ ...base, diagnostics: all.slice(0, 1), partial: true });
  expect(shown(compareWithBaseline({ ...base, diagnostics: all }))).toEqual([
    "src/b.txt:1 unchanged/unverified-told",
    "src/b.txt:2 unchanged/unverified-told",
    "src/b.txt:3 unchanged/unverified-told",
  ]);
});

// A compiler in two passes, as rustc runs clippy's lints: while any file holds a type error
// (TYPE), only that pass speaks (TYPE errors and CFG warnings); the LINT pass runs after.
const TWO_PASSES: CallbackDef = {
  name: "two-passes",
  pattern: "*.txt",
  run: `if grep -q TYPE src/*.txt; then grep -n -H -o -E 'TYPE|CFG' src/*.txt; else grep -n -H -o -E 'LINT|CFG' src/*.txt; fi | sed -E 's/^([^:]+):([0-9]+):(.*)$/\\1:\\2:1: error: pass says \\3 [\\3]/'; exit 1`,
  timeout: 20,
};

test("what a failed compile hid (lints run only when it compiles) is not new when it comes back: the first run's silence was no proof it was gone", async () => {
  const root = repo({ "src/lib.txt": "ok\n", "src/range.txt": "LINT a\nLINT b\nCFG c\n" });
  const run = async (paths: string[]) => {
    const engine = createEngine({ root, config: { callbacks: [TWO_PASSES] } });
    const outcome = await engine.run(hookBatch(root, paths));
    return shown((outcome.runs[0]?.diagnostics ?? []) as Diagnostic[]).sort();
  };
  // The agent's type error stops the compile before the lints: range.txt's two are not said.
  writeFileSync(join(root, "src/lib.txt"), "TYPE\n");
  expect(await run(["src/lib.txt"])).toEqual([
    "src/lib.txt:1 new",
    "src/range.txt:3 unchanged/unverified",
  ]);
  // Fixed: the compile goes on to the lints, which were in range.txt all along.
  writeFileSync(join(root, "src/lib.txt"), "ok again\n");
  expect(await run(["src/lib.txt"])).toEqual([
    "src/range.txt:1 unchanged/unverified",
    "src/range.txt:2 unchanged/unverified",
    "src/range.txt:3 unchanged/unverified-told",
  ]);
  // The same holds in a file the agent edits: a type error there hides its old lints too.
  writeFileSync(join(root, "src/range.txt"), "LINT a\nLINT b\nCFG c\nTYPE\n");
  expect(await run(["src/range.txt"])).toEqual([
    "src/range.txt:3 unchanged/unverified-told",
    "src/range.txt:4 new",
  ]);
  writeFileSync(join(root, "src/range.txt"), "LINT a\nLINT b\nCFG c\n");
  expect(await run(["src/range.txt"])).toEqual([
    "src/range.txt:1 unchanged/commit",
    "src/range.txt:2 unchanged/commit",
    "src/range.txt:3 unchanged/unverified-told",
  ]);
  // What the agent brought and a failed compile hid is still the agent's when it comes back.
  writeFileSync(join(root, "src/lib.txt"), "LINT mine\n");
  expect(await run(["src/lib.txt"])).toContain("src/lib.txt:1 new");
  writeFileSync(join(root, "src/range.txt"), "LINT a\nLINT b\nCFG c\nTYPE\n");
  expect(await run(["src/range.txt"])).not.toContain("src/lib.txt:1 new");
  writeFileSync(join(root, "src/range.txt"), "LINT a\nLINT b\nCFG c\n");
  expect(await run(["src/range.txt"])).toContain("src/lib.txt:1 new");
});

test("a first sight in a file the agent did not edit is new when it names code the edit changed (callers of a changed signature), old otherwise", () => {
  // spf13/pflag: VarP gained a parameter; go vet reported its callers in 11 other files
  const root = repo({
    "flag.go":
      "package p\n\nfunc (f *FlagSet) VarP(value Value, name string) {\n}\n\nfunc OldName() {}\n",
    "bool.go": "package p\n\nfunc b() {\n\tf.VarP(v, n)\n\tOldName()\n}\n",
    "range.rs": "impl<T: Iterator + DoubleEndedIterator> X for T {}\n",
  });
  writeFileSync(
    join(root, "flag.go"),
    "package p\n\nfunc (f *FlagSet) VarP(value Value, name string, hidden bool) {\n}\n\nfunc NewName() {}\n",
  );
  const diag = (file: string, line: number, message: string): Diagnostic => ({
    file,
    line,
    column: 1,
    severity: "error",
    code: "",
    message,
    tool: "go",
  });
  const marked = compareWithBaseline({
    root,
    callback: "vet",
    files: ["flag.go"],
    edited: new Set(["flag.go"]),
    fromCheck: false,
    diagnostics: [
      diag("bool.go", 4, "not enough arguments in call to f.VarP"),
      diag("bool.go", 5, "undefined: OldName"),
      diag(
        "range.rs",
        1,
        "this bound is already specified as the supertrait of `DoubleEndedIterator`",
      ),
      diag("range.rs", 1, "hiding a lifetime that's elided elsewhere is confusing"),
    ],
  });
  expect(shown(marked)).toEqual([
    "bool.go:4 new",
    "bool.go:5 new",
    "range.rs:1 unchanged/unverified",
    "range.rs:1 unchanged/unverified",
  ]);
});

test("past a partial record's cut in a file the agent did not edit: new when it names code the edit changed", () => {
  const root = repo({
    "lib.go": "package p\n\nfunc VarP(a int) {}\n",
    "caller.go": "package p\n\nfunc c() { VarP(1) }\nvar oldLint = 1\n",
  });
  const diag = (file: string, line: number, message: string): Diagnostic => ({
    file,
    line,
    column: 1,
    severity: "error",
    code: "",
    message,
    tool: "go",
  });
  const run = (diagnostics: Diagnostic[]) =>
    shown(
      compareWithBaseline({
        root,
        callback: "vet",
        files: ["lib.go"],
        edited: new Set(["lib.go"]),
        fromCheck: false,
        diagnostics,
      }),
    );
  // The agent's type error (a failed compile: records kept partial), an old lint elsewhere.
  writeFileSync(join(root, "lib.go"), "package p\n\nfunc VarP(a int) { undefinedThing }\n");
  expect(
    run([diag("lib.go", 3, "undefined: undefinedThing"), diag("caller.go", 4, "unused oldLint")]),
  ).toEqual(["lib.go:3 new", "caller.go:4 unchanged/unverified"]);
  // Fixed, but VarP gained a parameter: its caller breaks, past caller.go's partial record.
  writeFileSync(join(root, "lib.go"), "package p\n\nfunc VarP(a int, b int) {}\n");
  expect(
    run([
      diag("caller.go", 3, "not enough arguments in call to VarP"),
      diag("caller.go", 4, "unused oldLint"),
    ]),
  ).toEqual(["caller.go:3 new", "caller.go:4 unchanged/unverified-told"]);
});

test("past a partial record's cut (a run whose edit brought an error), a diagnostic naming nothing in a file the agent did not edit is unverified, not claimed to be there before", () => {
  const root = repo({ "src/a.txt": "x\n", "src/b.txt": "BAD old\nBAD caller\n" });
  const base = {
    root,
    callback: "cut-by-error",
    fromCheck: false,
    files: ["src/a.txt"],
    edited: new Set(["src/a.txt"]),
    checksWholeProject: true,
  };
  writeFileSync(join(root, "src/a.txt"), "BAD\n");
  expect(
    shown(
      compareWithBaseline({
        ...base,
        diagnostics: [banned("src/a.txt", 1), banned("src/b.txt", 1)],
      }),
    ),
  ).toEqual(["src/a.txt:1 new", "src/b.txt:1 unchanged/unverified"]);
  // a.txt fixed; b.txt's line 2 now has an error (the agent's edit, or a pass the error hid).
  writeFileSync(join(root, "src/a.txt"), "y\n");
  expect(
    shown(
      compareWithBaseline({
        ...base,
        diagnostics: [banned("src/b.txt", 1), banned("src/b.txt", 2)],
      }),
    ),
  ).toEqual(["src/b.txt:1 unchanged/unverified-told", "src/b.txt:2 unchanged/unverified"]);
});

test("a first sight naming only a language's built-in types or keywords ('string', 'number') is not taken for the edit's: those words are on any changed line", () => {
  // unjs/citty: the agent added `const added: number = "y"`; an old committed
  // `oldBroken: number = "x"` in args.ts, never touched, was told as new and held its stop
  // three times after it had fixed its own error
  const root = repo({
    "utils.ts": "export function toArray(val: any) {\n  return [val];\n}\n",
    "args.ts": 'export const oldBroken: number = "x";\n',
    "flag.go": "package p\n\nfunc VarP(name string) {}\n",
    "old.go": "package p\n\nvar x int = name\n",
  });
  writeFileSync(
    join(root, "utils.ts"),
    'export const added: number = "y";\nexport function toArray(val: any) {\n  return [val];\n}\n',
  );
  writeFileSync(join(root, "flag.go"), "package p\n\nfunc VarP(name string, hidden bool) {}\n");
  const diag = (file: string, line: number, message: string): Diagnostic => ({
    file,
    line,
    column: 1,
    severity: "error",
    code: "",
    message,
    tool: "tsc",
  });
  const marked = compareWithBaseline({
    root,
    callback: "types",
    files: ["utils.ts", "flag.go"],
    edited: new Set(["utils.ts", "flag.go"]),
    fromCheck: false,
    diagnostics: [
      diag("args.ts", 1, "Type 'string' is not assignable to type 'number'."),
      diag("old.go", 3, "mismatched types: expected `bool`, found `string`"),
      diag("old.go", 3, "not enough arguments in call to VarP"),
    ],
  });
  expect(shown(marked)).toEqual([
    "args.ts:1 unchanged/unverified",
    "old.go:3 unchanged/unverified",
    "old.go:3 new",
  ]);
});
