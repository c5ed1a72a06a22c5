import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CallbackDef } from "../../src/config/types.ts";
import { compareWithBaseline } from "../../src/diagnostics/baseline/compare.ts";
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
  // The project as committed, checked: HEAD's record.
  await runOnce(root, ["src/a.txt", "src/b.txt"], "check");
  writeFileSync(join(root, "src/a.txt"), "BAD new\nx\ny\none\nBAD old\nthree\n");
  expect(shown(await runOnce(root, ["src/a.txt"]))).toEqual([
    "src/a.txt:1 new",
    "src/a.txt:5 unchanged/run",
    // the project as a whole differs from HEAD's: b.txt's may come from the edit, but HEAD
    // held it (the whole project as committed was checked): old
    "src/b.txt:1 unchanged/run",
  ]);
  // Two more lines on top shift everything: still compared with HEAD's content.
  writeFileSync(join(root, "src/a.txt"), "p\nq\nBAD new\nx\ny\none\nBAD old\nthree\n");
  expect(shown(await runOnce(root, ["src/a.txt"]))).toEqual([
    "src/a.txt:3 new", // the agent's own, still not fixed
    "src/a.txt:7 unchanged/run",
    "src/b.txt:1 unchanged/run",
  ]);
  writeFileSync(join(root, "src/a.txt"), "p\nq\nBAD new\nx\nBAD y\none\nBAD old\nthree\n");
  const third = shown(await runOnce(root, ["src/a.txt"]));
  expect(third).toContain("src/a.txt:5 new");
  expect(third).toContain("src/a.txt:7 unchanged/run");
});

test("cpilot check marks against HEAD and records what it finds", async () => {
  const root = repo({ "src/a.txt": "BAD one\n" });
  expect(shown(await runOnce(root, ["src/a.txt"], "check"))).toEqual(["src/a.txt:1 unchanged/run"]);
  writeFileSync(join(root, "src/a.txt"), "added\nBAD one\n");
  expect(shown(await runOnce(root, ["src/a.txt"]))).toEqual(["src/a.txt:2 unchanged/run"]);
});

test("a baseline that cannot be saved costs nothing: diagnostics still come back", async () => {
  const root = repo({ "src/a.txt": "BAD one\n" });
  mkdirSync(join(root, ".cpilot"), { recursive: true });
  writeFileSync(join(root, ".cpilot", "baseline"), "a file where the folder should be");
  // The project is as in HEAD: what this run finds is what HEAD holds.
  expect(shown(await runOnce(root, ["src/a.txt"]))).toEqual(["src/a.txt:1 unchanged/run"]);
  rmSync(join(root, ".cpilot", "baseline"));
  // A symlinked state folder is not followed.
  const elsewhere = tempDir("cpilot-elsewhere-");
  execFileSync("ln", ["-s", elsewhere, join(root, ".cpilot", "baseline")]);
  expect(shown(await runOnce(root, ["src/a.txt"]))).toEqual(["src/a.txt:1 unchanged/run"]);
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
  // A line on top (the same content never reports otherwise): the two moved down.
  writeFiles(root, { "a.txt": "zero\none\ntwo\n" });
  const again = compareWithBaseline({
    ...input,
    diagnostics: [diag(2, "E1"), diag(3, "E3")],
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
