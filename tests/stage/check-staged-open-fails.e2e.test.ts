/**
 * A `check --staged` that fails after it set work aside, before any run: the work is back
 * in the tree when cpilot exits, not left in the stage folder for the next cpilot call.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo, tempDir, writeFiles } from "../helpers/tmp.ts";

const git = (root: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/**
 * A git that answers as git does, but for two moments: right after the survey of the tree
 * (`status --branch`) someone edits the staged a.txt, and the comparison of a.txt with the
 * index that this edit calls for fails, as git does on a lock it cannot wait for or a timeout.
 */
function gitEditingBetweenLooks(): string {
  const bin = tempDir("cpilot-fake-git-");
  const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  writeFiles(bin, {
    git: `#!/bin/sh
case "$*" in
  "status --porcelain=v2 --branch "*)
    "${real}" "$@"; rc=$?
    printf 'edited after the survey\\n' > a.txt
    exit $rc ;;
  *"--untracked-files=no -- a.txt")
    echo "fatal: cannot compare a.txt now" >&2
    exit 128 ;;
esac
exec "${real}" "$@"
`,
  });
  chmodSync(join(bin, "git"), 0o755);
  return bin;
}

for (const [how, extra] of [
  ["from the index look", {}],
  ["from the survey (hideUntracked: false)", { hideUntracked: false }],
] as const) {
  test(`git failing once work is set aside (${how}): the error is told and the work is back`, () => {
    const root = committedRepo("cpilot-staged-open-fails-", {
      "callbacks.config.json": JSON.stringify({
        callbacks: [{ name: "t", pattern: "*.txt", run: ["true"], timeout: 30 }],
        ...extra,
      }),
      ".gitignore": ".cpilot/\n",
      "a.txt": "a\n",
      "b.txt": "b\n",
    });
    writeFiles(root, { "a.txt": "a staged\n" });
    git(root, "add", "a.txt");
    writeFiles(root, { "b.txt": "b unstaged\n", "untracked.txt": "not in the commit\n" });
    const r = cpilot(["check", "--staged"], {
      cwd: root,
      env: { PATH: `${gitEditingBetweenLooks()}:${process.env.PATH}` },
    });
    expect(r.stderr).toContain("cannot compare a.txt now");
    expect(r.code).toBe(2);
    expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("b unstaged\n");
    expect(readFileSync(join(root, "untracked.txt"), "utf8")).toBe("not in the commit\n");
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("edited after the survey\n");
    expect(git(root, "show", ":a.txt")).toBe("a staged\n");
    expect(existsSync(join(root, ".git", "cpilot", "stage"))).toBe(false);
  });
}
