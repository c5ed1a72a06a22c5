/**
 * The stale-record sequence, with a real checker (tsc) through the compiled binary: a
 * record of content that is gone must never make the agent's own error "already there".
 * `cpilot check --all` (clean); a line with an error added; a check fails on it (or a
 * refused commit); the file reverted (checkout, stash); the agent writes the same line:
 * it must block with its error on the first try.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contextOf, postBatch } from "../agents/claude/_helpers.ts";
import { cpilot, cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { committedRepo, tempDir } from "../helpers/tmp.ts";

const TSC = join(import.meta.dir, "..", "..", "node_modules", ".bin", "tsc");
const BLOCKS = "checks failed after your last edits";
const A = "export const a: number = 1;\n";
const A_BROKEN = 'export const a: number = 1;\nexport const b: number = "two";\n';
const ERROR = "src/a.ts:2:14 error TS2322";

function project(): string {
  return committedRepo("cpilot-stale-", {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "types", pattern: "*.ts", run: `${TSC} -p .`, timeout: 120 }],
    }),
    "tsconfig.json": JSON.stringify({
      compilerOptions: { strict: true, noEmit: true },
      include: ["src"],
    }),
    "src/a.ts": A,
    "src/other.ts": "export const o = 1;\n",
  });
}

function git(root: string, ...args: string[]) {
  const r = spawnSync("git", args, {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, ...gitPath() },
  });
  return r;
}

function gitPath(): Record<string, string> {
  const bin = tempDir("cpilot-path-");
  symlinkSync(cpilotBinary(), join(bin, "cpilot"));
  return {
    PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`,
    HOME: process.env.HOME ?? "/root",
    ...runtimeEnv(),
  };
}

/** What the agent reads after writing `file`. */
function agentWrites(root: string, file: string, text: string): string {
  writeFileSync(join(root, file), text);
  const payload = { session_id: "s1", cwd: root, ...postBatch([join(root, file)]) };
  const r = cpilot(["hook", "claude"], {
    cwd: root,
    env: { AI_AGENT: "claude-code_2-1-330_cli" },
    input: JSON.stringify(payload),
  });
  expect(r.stderr).toBe("");
  return r.stdout.trim() === "" ? "" : contextOf(JSON.parse(r.stdout));
}

const variants: Record<string, (root: string) => void> = {
  "a failing check, then checkout": (root) => {
    expect(cpilot(["check"], { cwd: root }).code).toBe(1);
    git(root, "checkout", "--", "src/a.ts");
  },
  "a refused commit, then the file reverted": (root) => {
    expect(cpilot(["install", "git"], { cwd: root }).code).toBe(0);
    git(root, "add", "src/a.ts");
    expect(git(root, "commit", "-qm", "broken").status).not.toBe(0);
    git(root, "reset", "-q");
    git(root, "checkout", "--", "src/a.ts");
  },
  "a failing check, a revert, then a passing check of another file": (root) => {
    expect(cpilot(["check"], { cwd: root }).code).toBe(1);
    git(root, "checkout", "--", "src/a.ts");
    writeFileSync(join(root, "src/other.ts"), "export const o = 2;\n");
    expect(cpilot(["check", "src/other.ts"], { cwd: root }).code).toBe(0);
  },
  "a failing check, then a stash": (root) => {
    expect(cpilot(["check"], { cwd: root }).code).toBe(1);
    expect(git(root, "stash", "-q").status).toBe(0);
  },
};

for (const [name, revert] of Object.entries(variants))
  test(`the stale-record sequence blocks the agent's error on the first try: ${name}`, () => {
    const root = project();
    expect(cpilot(["check", "--all"], { cwd: root }).code).toBe(0);
    writeFileSync(join(root, "src/a.ts"), A_BROKEN);
    revert(root);
    const told = agentWrites(root, "src/a.ts", A_BROKEN);
    expect(told).toContain(BLOCKS);
    expect(told).toContain(ERROR);
    expect(told).not.toContain("already there");
  }, 180_000);
