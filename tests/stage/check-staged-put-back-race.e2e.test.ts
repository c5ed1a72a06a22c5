/**
 * The way back of set-aside work: what is in a set-aside file's place when it goes back, and
 * is not the staged version (a callback's rewrite, an agent's or an editor's write), is kept.
 * Here something is written, swapped in, or cpilot is killed, at the moment the put-back asks
 * git about the file: after what was in its place is judged, before the work goes back.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from "node:fs";
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

/**
 * git as it is, but once it has answered about `path` alone for the put-back (what the index
 * holds, or whether it differs from it), `then` runs in the work tree (cpilot's pid is $CPILOT).
 */
function gitThen(then: string, path = "b.txt"): string {
  const bin = tempDir("cpilot-fake-git-");
  const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  writeFiles(bin, {
    git: `#!/bin/sh
case "$*" in
  "ls-files --stage -z -- ${path}"|*"--untracked-files=no -- ${path}")
    "${real}" "$@"; rc=$?
    if [ ! -e "${bin}/done" ]; then : > "${bin}/done"; CPILOT=$PPID; ${then}
    fi
    exit $rc ;;
esac
exec "${real}" "$@"
`,
  });
  chmodSync(join(bin, "git"), 0o755);
  return bin;
}

/** a.txt staged, b.txt changed and not staged: b.txt is set aside while a.txt is checked. */
function repo(): string {
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
  return root;
}

function checkStaged(root: string, then: string) {
  return cpilot(["check", "--staged"], {
    cwd: root,
    env: { PATH: `${gitThen(then)}:${process.env.PATH}` },
  });
}

const kept = (root: string): string[] => contents(join(root, ".git", "cpilot", "kept"));
const leftAside = (root: string): string[] =>
  readdirSync(root).filter((name) => name.startsWith(".cpilot-aside-"));

test("a write to a set-aside file just after cpilot compared it is kept, not replaced", () => {
  const root = repo();
  const r = checkStaged(root, "printf 'written during the check\\n' > b.txt");
  expect(r.code).toBe(0);
  expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("b unstaged\n");
  expect(kept(root)).toContain("written during the check\n");
  expect(r.stderr).toContain("kept your later edit of b.txt as ");
  expect(leftAside(root)).toEqual([]);
  expect(git(root, "show", ":a.txt")).toBe("a staged\n");
});

test("a folder made in a set-aside file's place while it goes back is kept whole", () => {
  const root = repo();
  const r = checkStaged(root, "rm b.txt; mkdir b.txt; printf 'in a folder\\n' > b.txt/inner");
  expect(r.code).toBe(0);
  expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("b unstaged\n");
  expect(kept(root)).toContain("in a folder\n");
  expect(leftAside(root)).toEqual([]);
});

test("a link swapped into a set-aside file's place while it goes back: the file it names is untouched", () => {
  const root = repo();
  const outside = join(tempDir("cpilot-outside-"), "precious.txt");
  writeFileSync(outside, "not the project's\n");
  const r = checkStaged(root, `rm b.txt; ln -s '${outside}' b.txt`);
  expect(r.code).toBe(0);
  expect(readFileSync(outside, "utf8")).toBe("not the project's\n");
  expect(lstatSync(join(root, "b.txt")).isFile()).toBe(true);
  expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("b unstaged\n");
  const keptLinks = readdirSync(join(root, ".git", "cpilot", "kept"), { recursive: true })
    .map((name) => join(root, ".git", "cpilot", "kept", String(name)))
    .filter((p) => lstatSync(p).isSymbolicLink());
  expect(keptLinks.map((p) => readlinkSync(p))).toEqual([outside]);
});

test("killed as the put-back judges what was in place, with a write there meanwhile: the next call loses neither", () => {
  const root = repo();
  const r = checkStaged(root, "printf 'written before the kill\\n' > b.txt; kill -9 $CPILOT");
  expect(r.code).not.toBe(0);
  // the staged version that stood there was moved aside before it was judged
  expect(leftAside(root).length).toBe(1);
  const back = cpilot(["check", "--restore"], { cwd: root });
  expect(back.code).toBe(0);
  expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("b unstaged\n");
  expect(kept(root)).toContain("written before the kill\n");
  // what stood there before the write was the staged version: git holds it, nothing to keep
  expect(kept(root)).not.toContain("b\n");
  expect(leftAside(root)).toEqual([]);
  expect(git(root, "status", "--porcelain", "--", "b.txt")).toBe(" M b.txt\n");
});

test("a folder on the way back swapped for a link out while cpilot asks git: the work comes back inside, nothing is written outside", () => {
  const root = committedRepo("cpilot-staged-put-back-race-", {
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "t", pattern: "*.txt", run: ["true"], timeout: 30 }],
    }),
    ".gitignore": ".cpilot/\n",
    "a.txt": "a\n",
    "sub/b.txt": "b\n",
  });
  writeFiles(root, { "a.txt": "a staged\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "sub/b.txt": "b unstaged\n" });
  const outside = tempDir("cpilot-outside-");
  const r = cpilot(["check", "--staged"], {
    cwd: root,
    env: {
      PATH: `${gitThen(`mv sub "${outside}/moved"; ln -s '${outside}' sub`, "sub/b.txt")}:${process.env.PATH}`,
    },
  });
  expect(r.code).toBe(0);
  expect(readdirSync(outside)).toEqual(["moved"]);
  expect(lstatSync(join(root, "sub")).isDirectory()).toBe(true);
  expect(readFileSync(join(root, "sub", "b.txt"), "utf8")).toBe("b unstaged\n");
});
