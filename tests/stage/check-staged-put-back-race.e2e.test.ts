/**
 * The way back of set-aside work: what is in a set-aside file's place when it goes back, and
 * is not the staged version (a callback's rewrite, an agent's or an editor's write), is kept.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { chmodSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo, tempDir, writeFiles } from "../helpers/tmp.ts";

const git = (root: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** Every file under `dir`, by its content. */
function contents(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"));
  } catch {
    return [];
  }
}

/** git as it is, but once it has said whether b.txt differs from the index, b.txt is written. */
function gitThenWrite(): string {
  const bin = tempDir("cpilot-fake-git-");
  const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  writeFiles(bin, {
    git: `#!/bin/sh
case "$*" in
  *"--untracked-files=no -- b.txt")
    "${real}" "$@"; rc=$?
    if [ ! -e "${bin}/wrote" ]; then : > "${bin}/wrote"; printf 'written during the check\\n' > b.txt; fi
    exit $rc ;;
esac
exec "${real}" "$@"
`,
  });
  chmodSync(join(bin, "git"), 0o755);
  return bin;
}

// The look and the rename are two moments: a write between them is replaced by the set-aside
// version and kept nowhere. Run with `bun test --todo`.
test.todo("a write to a set-aside file just after cpilot compared it is kept, not replaced", () => {
  const root = committedRepo("cpilot-staged-put-back-race-", {
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
  const r = cpilot(["check", "--staged"], {
    cwd: root,
    env: { PATH: `${gitThenWrite()}:${process.env.PATH}` },
  });
  expect(r.code).toBe(0);
  expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("b unstaged\n");
  expect(contents(join(root, ".git", "cpilot", "kept"))).toContain("written during the check\n");
});
