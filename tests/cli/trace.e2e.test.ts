import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo, tempDir, writeFiles } from "../helpers/tmp.ts";

function project(): string {
  const root = tempDir("cpilot-trace-", { git: true });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "t", pattern: "*.ts", run: ["true"], timeout: 10 }],
    }),
    "a.ts": "",
  });
  return root;
}

const TRACE_LINE = /^\[trace\] \d+\.\d\d [^\n]+$/;

test("CPILOT_TRACE=1 puts phase timings on stderr, in order, and leaves stdout to --json", () => {
  const root = project();
  const r = cpilot(["check", "a.ts", "--json"], { cwd: root, env: { CPILOT_TRACE: "1" } });
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).ok).toBe(true);
  const lines = r.stderr.split("\n").filter((l) => l.startsWith("[trace]"));
  for (const line of lines) expect(line).toMatch(TRACE_LINE);
  const labels = lines.map((l) => l.split(" ").slice(2).join(" "));
  expect(labels).toEqual([
    "cpilot started",
    "command loaded",
    "config loaded",
    "files selected",
    "engine: runs planned",
    "engine: results looked up",
    "engine: files snapshotted, starting runs",
    "engine: run code loaded",
    "engine: runs ended",
    "engine: resync compared",
    "check reported",
  ]);
  const times = lines.map((l) => Number(l.split(" ")[1]));
  expect(times).toEqual([...times].sort((a, b) => a - b));
});

test("without CPILOT_TRACE nothing is traced, and a hook's stdout stays protocol only", () => {
  const root = project();
  expect(cpilot(["check", "a.ts"], { cwd: root }).stderr).not.toContain("[trace]");
  const payload = JSON.stringify({
    session_id: "s",
    cwd: root,
    hook_event_name: "PostToolUse",
    tool_name: "Write",
    tool_input: { file_path: `${root}/a.ts`, content: "" },
    tool_response: {},
  });
  const traced = cpilot(["hook", "claude"], {
    cwd: root,
    env: { CPILOT_TRACE: "1" },
    input: payload,
  });
  expect(traced.code).toBe(0);
  expect(traced.stdout).not.toContain("[trace]");
  expect(traced.stderr).toMatch(/\[trace\] [\d.]+ hook answered\n$/);
});

test("CPILOT_TRACE=cpu adds this process's CPU time to each line", () => {
  const root = project();
  const r = cpilot(["check", "a.ts"], { cwd: root, env: { CPILOT_TRACE: "cpu" } });
  expect(r.code).toBe(0);
  const lines = r.stderr.split("\n").filter((l) => l.startsWith("[trace]"));
  expect(lines.length).toBeGreaterThan(3);
  for (const line of lines) expect(line).toMatch(/^\[trace\] \d+\.\d\d cpu \d+\.\d\d [^\n]+$/);
  const cpu = lines.map((l) => Number(l.split(" ")[3]));
  expect(cpu).toEqual([...cpu].sort((a, b) => a - b));
});

test("a check whose runs all come from the cache never loads the code that starts runs", () => {
  const root = committedRepo("cpilot-trace-", {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "t", pattern: "*.ts", run: ["true"], timeout: 10 }],
    }),
    "a.ts": "",
  });
  const labels = (args: string[]): string[] => {
    const r = cpilot(args, { cwd: root, env: { CPILOT_TRACE: "1" } });
    expect(r.code).toBe(0);
    return r.stderr
      .split("\n")
      .filter((l) => l.startsWith("[trace]"))
      .map((l) => l.split(" ").slice(2).join(" "));
  };
  const add = (): void => void execFileSync("git", ["add", "a.ts"], { cwd: root });
  const LOADED = "engine: run code loaded";
  expect(labels(["check", "--all"])).toContain(LOADED);
  const again = labels(["check", "--all"]);
  expect(again).toContain("engine: runs ended");
  expect(again).not.toContain(LOADED);
  // The file the agent loop checked, staged as it was: the commit's check is a replay too.
  writeFiles(root, { "a.ts": "export const a = 0;\n" });
  expect(labels(["check", "a.ts"])).toContain(LOADED);
  add();
  const staged = labels(["check", "--staged"]);
  expect(staged).toContain("engine: runs ended");
  expect(staged).not.toContain(LOADED);
  // New content runs: the trace is not silent about it.
  writeFiles(root, { "a.ts": "export const a = 1;\n" });
  add();
  expect(labels(["check", "--staged"])).toContain(LOADED);
});

test("check --staged loads the code that sets work aside and stages fixes only when there is some", () => {
  const root = committedRepo("cpilot-trace-", {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        { name: "t", pattern: "*.ts", run: ["true"], timeout: 10 },
        // "formats" a.md by upper-casing "fix me"
        {
          name: "fmt",
          pattern: "*.md",
          fixes: true,
          timeout: 10,
          run: 'sed -i "s/fix me/FIX ME/" "$@"',
        },
      ],
    }),
    "a.ts": "",
    "a.md": "",
  });
  const git = (...args: string[]): string =>
    execFileSync("git", args, { cwd: root, encoding: "utf8" });
  const labels = (): string[] => {
    const r = cpilot(["check", "--staged"], { cwd: root, env: { CPILOT_TRACE: "1" } });
    expect(r.code).toBe(0);
    return r.stderr
      .split("\n")
      .filter((l) => l.startsWith("[trace]"))
      .map((l) => l.split(" ").slice(2).join(" "));
  };
  const SET_ASIDE = "staged: unstaged work set aside";
  const FIX_CODE = "staged: fix code loaded";
  // staged as it is on disk, nothing fixed: neither is loaded
  writeFiles(root, { "a.ts": "export const a = 1;\n" });
  git("add", "a.ts");
  const plain = labels();
  expect(plain).toContain("engine: runs ended");
  expect(plain).not.toContain(SET_ASIDE);
  expect(plain).not.toContain(FIX_CODE);
  // a fixer rewrote a staged file: the fix is staged
  writeFiles(root, { "a.md": "fix me\n" });
  git("add", "a.md");
  const fixed = labels();
  expect(fixed).toContain(FIX_CODE);
  expect(fixed).not.toContain(SET_ASIDE);
  expect(git("show", ":a.md")).toBe("FIX ME\n");
  // unstaged work: set aside and back, byte for byte
  writeFiles(root, { "a.ts": "export const a = 2;\n" });
  git("add", "a.ts");
  writeFiles(root, { "a.ts": "export const a = 3; // unstaged\n", "new.txt": "untracked\n" });
  const aside = labels();
  expect(aside).toContain(SET_ASIDE);
  expect(aside).toContain(FIX_CODE);
  expect(readFileSync(join(root, "a.ts"), "utf8")).toBe("export const a = 3; // unstaged\n");
  expect(readFileSync(join(root, "new.txt"), "utf8")).toBe("untracked\n");
  expect(git("show", ":a.ts")).toBe("export const a = 2;\n");
});
