/**
 * A check killed while it claimed the stage folder leaves `stage.new-<pid>` with only its
 * journal in it: the next check removes it once that pid is gone, and nothing else.
 */
import { expect, test } from "bun:test";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo, writeFiles } from "../helpers/tmp.ts";

const git = (root: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

function leftClaim(root: string, pid: number, files: Record<string, string>): string {
  const dir = join(root, ".git", "cpilot", `stage.new-${pid}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

test("a claim folder left by a killed check goes at the next check; a live one's, or one holding more, stays", () => {
  const root = committedRepo("cpilot-dead-claims-", {
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "t", pattern: "*.txt", run: ["true"], timeout: 30 }],
    }),
    ".gitignore": ".cpilot/\n",
    "a.txt": "a\n",
    "b.txt": "b\n",
  });
  writeFiles(root, { "a.txt": "a staged\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "b.txt": "b unstaged\n" });
  const dead = spawnSync("true").pid as number;
  const alive = spawn("sleep", ["60"], { stdio: "ignore" });
  try {
    const gone = leftClaim(root, dead, { "journal.json": "{}" });
    const live = leftClaim(root, alive.pid as number, { "journal.json": "{}" });
    const deadWithMore = leftClaim(root, dead + 1, { "journal.json": "{}", "b.txt": "mine\n" });
    const r = cpilot(["check", "--staged"], { cwd: root });
    expect(r.code).toBe(0);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(readdirSync(deadWithMore).sort()).toEqual(["b.txt", "journal.json"]);
  } finally {
    alive.kill("SIGKILL");
  }
});
