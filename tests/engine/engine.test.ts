import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CallbackDef } from "../../src/config/types.ts";
import { createEngine } from "../../src/engine/engine.ts";
import type { EditBatch } from "../../src/model/batch.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const HOSTILE = [
  "plain.txt",
  "with space.txt",
  "quote'single.txt",
  'quote"double.txt',
  "$(touch pwned).txt",
  "`touch pwned2`.txt",
  "new\nline.txt",
  "semi;colon&amp.txt",
  "-dash-first.txt",
  "ünï cødé.txt",
];

function batch(root: string, paths: string[]): EditBatch {
  return {
    root,
    files: paths.map((path) => ({ path, kind: "modified" as const })),
    origin: { surface: "api" },
  };
}

function engineFor(root: string, callbacks: CallbackDef[]) {
  return createEngine({ root, config: { callbacks } });
}

test("hostile file names reach a bash script byte for byte, through every channel", async () => {
  const root = tempDir();
  writeFiles(root, Object.fromEntries(HOSTILE.map((n) => [n, "x"])));
  const script = [
    `for f in "$@"; do printf '%s\\0' "$f"; done > "$CP_PROJECT_ROOT/.args"`,
    `cp "$CP_CHANGED_FILES_NUL" "$CP_PROJECT_ROOT/.nul"`,
    `printf '%s' "$CP_CHANGED_FILES" > "$CP_PROJECT_ROOT/.env-list"`,
    `cat > "$CP_PROJECT_ROOT/.stdin"`,
  ].join("\n");
  const engine = engineFor(root, [{ name: "probe", pattern: "*.txt", run: script, timeout: 10 }]);
  const outcome = await engine.run(batch(root, HOSTILE));
  expect(outcome.runs[0]?.status).toBe("passed");
  const sorted = [...HOSTILE];
  const args = readFileSync(join(root, ".args"), "utf8").split("\0").slice(0, -1);
  // as arguments, a name starting with "-" is "./-…": the same file, never an option
  expect(args).toEqual(sorted.map((n) => (n.startsWith("-") ? `./${n}` : n)));
  expect(readFileSync(join(root, ".nul"), "utf8").split("\0").slice(0, -1)).toEqual(sorted);
  expect(readFileSync(join(root, ".env-list"), "utf8")).toBe(sorted.join("\n"));
  const stdin = JSON.parse(readFileSync(join(root, ".stdin"), "utf8"));
  expect(stdin.files).toEqual(sorted);
  expect(stdin.changes.map((c: { path: string }) => c.path)).toEqual(sorted);
  expect(existsSync(join(root, "pwned"))).toBe(false);
  expect(existsSync(join(root, "pwned2"))).toBe(false);
});

test("the stdin JSON gives each file its kind: created, modified or deleted", async () => {
  const root = tempDir();
  writeFiles(root, { "new.ts": "", "old.ts": "" });
  const engine = engineFor(root, [
    { name: "probe", pattern: "*.ts", run: `cat > "$CP_PROJECT_ROOT/.stdin"`, timeout: 10 },
  ]);
  const files = [
    { path: "new.ts", kind: "created" as const },
    { path: "old.ts", kind: "modified" as const },
    { path: "gone.ts", kind: "deleted" as const },
  ];
  const outcome = await engine.run({ root, files, origin: { surface: "api" } });
  expect(outcome.runs[0]?.status).toBe("passed");
  expect(JSON.parse(readFileSync(join(root, ".stdin"), "utf8")).changes).toEqual(files);
});

test("argv runs expand {files} and {file} to separate arguments, with no shell", async () => {
  const root = tempDir();
  writeFiles(root, Object.fromEntries(HOSTILE.map((n) => [n, "x"])));
  writeFiles(root, { "argv.sh": `for f in "$@"; do printf '%s\\0' "$f"; done >> "$OUT"\n` });
  const engine = engineFor(root, [
    {
      name: "batch",
      pattern: "*.txt",
      run: ["bash", "argv.sh", "{files}"],
      timeout: 10,
      env: { OUT: join(root, "batch.out") },
    },
    {
      name: "each",
      pattern: "*.txt",
      per: "file",
      run: ["bash", "argv.sh", "--file={file}"],
      timeout: 10,
      env: { OUT: join(root, "each.out") },
      overlap: "parallel",
    },
  ]);
  const outcome = await engine.run(batch(root, HOSTILE));
  expect(outcome.runs.filter((r) => r.callback === "each")).toHaveLength(HOSTILE.length);
  expect(outcome.ok).toBe(true);
  expect(readFileSync(join(root, "batch.out"), "utf8").split("\0").slice(0, -1)).toEqual(
    HOSTILE.map((n) => (n.startsWith("-") ? `./${n}` : n)),
  );
  const each = readFileSync(join(root, "each.out"), "utf8").split("\0").slice(0, -1).sort();
  expect(each).toEqual(HOSTILE.map((n) => `--file=${n}`).sort());
  expect(existsSync(join(root, "pwned"))).toBe(false);
});

test("per-file runs set CP_CHANGED_FILE; statuses follow exit codes", async () => {
  const root = tempDir();
  writeFiles(root, { "a.md": "", "b.md": "" });
  const engine = engineFor(root, [
    { name: "pass", pattern: "a.md", run: "exit 0", timeout: 5, successMessage: "fine" },
    { name: "silent", pattern: "*.md", run: "exit 7", timeout: 5 },
    {
      name: "fail",
      pattern: "b.md",
      run: 'echo "bad: $CP_CHANGED_FILE"; exit 3',
      per: "file",
      timeout: 5,
    },
    { name: "missing", pattern: "b.md", run: "no-such-command-here", timeout: 5 },
    { name: "slow", pattern: "a.md", run: "sleep 5", timeout: 0.3 },
    { name: "bg", pattern: "a.md", run: "exit 1", blocking: false },
  ]);
  const outcome = await engine.run(batch(root, ["a.md", "b.md"]));
  const by = Object.fromEntries(outcome.runs.map((r) => [r.callback, r]));
  expect(by.pass?.status).toBe("passed");
  expect(by.silent?.status).toBe("silent");
  expect(by.fail?.status).toBe("failed");
  expect(by.fail?.summary).toBe("exit 3");
  expect(by.fail?.tail).toEqual(["bad: b.md"]);
  expect(by.missing?.summary).toBe("exit 127 (command not found)");
  expect(by.slow?.status).toBe("timed_out");
  expect(by.slow?.summary).toMatch(/^timed out after 0\.3 s: sent SIGTERM/);
  expect(by.bg?.status).toBe("failed");
  expect(outcome.ok).toBe(false);
  // the full log stays on disk
  expect(readFileSync(by.fail!.logPath, "utf8")).toBe("bad: b.md\n");
});

test("only non-blocking failures leave the outcome ok", async () => {
  const root = tempDir();
  writeFiles(root, { "a.md": "" });
  const engine = engineFor(root, [{ name: "bg", pattern: "a.md", run: "exit 1", blocking: false }]);
  const outcome = await engine.run(batch(root, ["a.md"]));
  expect(outcome.runs[0]?.status).toBe("failed");
  expect(outcome.ok).toBe(true);
});

test("TypeScript run functions pass, fail, throw and time out", async () => {
  const root = tempDir();
  writeFiles(root, { "a.ts": "" });
  let seen: readonly string[] = [];
  const engine = engineFor(root, [
    {
      name: "ok",
      pattern: "*.ts",
      run: ({ files, log }) => {
        seen = files;
        log("hello");
      },
      timeout: 5,
    },
    { name: "code", pattern: "*.ts", run: () => 4, timeout: 5 },
    {
      name: "throws",
      pattern: "*.ts",
      run: () => {
        throw new Error("kaput");
      },
      timeout: 5,
    },
    {
      name: "hangs",
      pattern: "*.ts",
      run: ({ signal }) => new Promise((r) => signal.addEventListener("abort", r)),
      timeout: 0.2,
    },
  ]);
  const outcome = await engine.run(batch(root, ["a.ts"]));
  const by = Object.fromEntries(outcome.runs.map((r) => [r.callback, r]));
  expect(seen).toEqual(["a.ts"]);
  expect(by.ok?.tail).toEqual(["hello"]);
  expect(by.ok?.status).toBe("passed");
  expect(by.code?.summary).toBe("exit 4");
  expect(by.throws?.status).toBe("failed");
  expect(by.throws?.tail[0]).toContain("kaput");
  expect(by.hangs?.status).toBe("timed_out");
});

test("a formatter's rewrite comes back as a resync with a unified diff", async () => {
  const root = tempDir("cpilot-resync-", { git: true });
  writeFiles(root, { "src/a.ts": "const x=1\n", "gen/.keep": "" });
  const engine = engineFor(root, [
    {
      name: "fmt",
      pattern: "*.ts",
      run: `for f in "$@"; do sed -i 's/x=1/x = 1;/' "$f"; done`,
      timeout: 5,
    },
    { name: "gen", pattern: "*.ts", run: "echo generated > gen/out.txt", timeout: 5 },
  ]);
  const outcome = await engine.run(batch(root, ["src/a.ts"]), { resyncTree: true });
  const byPath = Object.fromEntries(outcome.resyncs.map((r) => [r.path, r]));
  expect(byPath["src/a.ts"]?.newText).toBe("const x = 1;\n");
  expect(byPath["src/a.ts"]?.diff).toContain("-const x=1\n+const x = 1;");
  expect(byPath["gen/out.txt"]?.oldText).toBeNull();
  expect(byPath["gen/out.txt"]?.newText).toBe("generated\n");
});

test("no resync when nothing changed, and no runs when nothing matches", async () => {
  const root = tempDir();
  writeFiles(root, { "a.ts": "x\n" });
  const engine = engineFor(root, [{ name: "noop", pattern: "*.ts", run: "true", timeout: 5 }]);
  expect((await engine.run(batch(root, ["a.ts"]))).resyncs).toEqual([]);
  const none = await engine.run(batch(root, ["a.rs"]));
  expect(none.runs).toEqual([]);
  expect(existsSync(join(root, ".cpilot"))).toBe(true);
});

test("files beyond the OS argument limit are split into several processes of one run", async () => {
  const root = tempDir();
  const names = Array.from(
    { length: 3000 },
    (_, i) => `dir-${"d".repeat(40)}/file-${i}-${"f".repeat(30)}.txt`,
  );
  const engine = engineFor(root, [
    {
      name: "count",
      pattern: "*.txt",
      run: `printf '%s\\n' "$#" >> counts; printf '%s' "$CP_CHANGED_FILES" | wc -l >> lines`,
      timeout: 20,
    },
  ]);
  const outcome = await engine.run({
    root,
    files: names.map((path) => ({ path, kind: "deleted" })),
    origin: { surface: "api" },
  });
  expect(outcome.runs[0]?.status).toBe("passed");
  const counts = readFileSync(join(root, "counts"), "utf8").trim().split("\n").map(Number);
  expect(counts.length).toBeGreaterThan(1);
  expect(counts.reduce((a, b) => a + b, 0)).toBe(3000);
});

test("a list that fits one environment string (128 KiB on Linux) takes one process", async () => {
  const root = tempDir();
  // 1,200 names of 104 bytes: 126,000 bytes with their separators
  const names = Array.from(
    { length: 1200 },
    (_, i) => `${String(i).padStart(4, "0")}-${"n".repeat(95)}.txt`,
  );
  const engine = engineFor(root, [
    {
      name: "count",
      pattern: "*.txt",
      run: `printf '%s\\n' "$#" >> counts; printf '%s\\n' "$CP_CHANGED_FILES" | wc -l >> lines`,
      timeout: 20,
    },
  ]);
  const outcome = await engine.run({
    root,
    files: names.map((path) => ({ path, kind: "deleted" })),
    origin: { surface: "api" },
  });
  expect(outcome.runs[0]?.status).toBe("passed");
  expect(readFileSync(join(root, "counts"), "utf8")).toBe("1200\n");
  expect(readFileSync(join(root, "lines"), "utf8").trim()).toBe("1200");
});

test("run logs are pruned to keepLogs", async () => {
  const root = tempDir();
  writeFiles(root, { "a.ts": "" });
  const engine = createEngine({
    root,
    config: {
      keepLogs: 3,
      callbacks: [
        {
          name: "t",
          pattern: "*.ts",
          run: "echo hi",
          timeout: 5,
          per: "file",
          overlap: "parallel",
        },
      ],
    },
  });
  for (let i = 0; i < 6; i++) await engine.run(batch(root, ["a.ts"]));
  const logs = readdirSync(join(root, ".cpilot", "runs")).filter((n) => n.endsWith(".log"));
  expect(logs.length).toBeLessThanOrEqual(4);
  writeFileSync(join(root, "x"), "");
});

test("beforeRuns is called when a run is to start, never when every result is replayed", async () => {
  const root = tempDir("cpilot-engine-", { git: true });
  writeFiles(root, { "a.txt": "x\n" });
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", "init"], { cwd: root });
  const engine = engineFor(root, [{ name: "ok", pattern: "*.txt", run: ["true"], timeout: 30 }]);
  let called = 0;
  const options = {
    beforeRuns: () => {
      called++;
    },
  };
  const first = await engine.run(batch(root, ["a.txt"]), options);
  expect(first.runs.map((r) => r.cached === undefined)).toEqual([true]);
  expect(called).toBe(1);
  const again = await engine.run(batch(root, ["a.txt"]), options);
  expect(again.runs.map((r) => r.cached === undefined)).toEqual([false]);
  expect(called).toBe(1);
});
