import { expect, test } from "bun:test";
import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { cpilot, cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { committedRepo, tempDir, waitFor, writeFiles } from "../helpers/tmp.ts";
import { treeState } from "../helpers/tree-state.ts";

const git = (root: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** A repo with a committed config and files; `callbacks` is the config's list. */
function repo(callbacks: unknown[], extra: Record<string, unknown> = {}): string {
  const root = committedRepo("cpilot-staged-", {
    "callbacks.config.json": JSON.stringify({ callbacks, ...extra }),
    ".gitignore": ".cpilot/\nignored.log\n",
    "a.txt": "one\ntwo\nthree\nfour\nfive\nsix\nseven\n",
    "b.txt": "bee\n",
    "gone.txt": "to be deleted\n",
  });
  return root;
}

/** A callback that copies what it sees of the tree into `seen/` outside the repo. */
function spy(seen: string, pattern = "*.txt") {
  return {
    name: "spy",
    pattern,
    timeout: 30,
    run: `mkdir -p "${seen}" && for f in a.txt b.txt gone.txt new.txt untracked.txt ignored.log; do if [ -e "$f" ]; then cp "$f" "${seen}/$f"; fi; done`,
  };
}

const read = (path: string): string => readFileSync(path, "utf8");

test("the callbacks see exactly the staged content; unstaged changes and untracked files come back byte for byte", () => {
  const seen = join(tempDir("cpilot-seen-"), "s");
  const root = repo([spy(seen)]);
  writeFiles(root, { "a.txt": "one\ntwo\nthree STAGED\nfour\nfive\nsix\nseven\n" });
  git(root, "add", "a.txt");
  writeFiles(root, {
    "a.txt": "one\ntwo\nthree STAGED\nfour\nfive\nsix UNSTAGED\nseven\n",
    "b.txt": "bee unstaged, no newline",
    "untracked.txt": "not in the commit\n",
    "ignored.log": "ignored stays\n",
  });
  rmSync(join(root, "gone.txt")); // an unstaged deletion
  writeFiles(root, { "new dir/new\nline $(touch pwned) it's.txt": "hostile name\n" });
  writeFiles(root, { "intent.txt": "added with -N\n" });
  git(root, "add", "-N", "intent.txt");
  const before = treeState(root);
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.code).toBe(0);
  expect(read(join(seen, "a.txt"))).toBe("one\ntwo\nthree STAGED\nfour\nfive\nsix\nseven\n");
  expect(read(join(seen, "b.txt"))).toBe("bee\n");
  expect(read(join(seen, "gone.txt"))).toBe("to be deleted\n");
  expect(existsSync(join(seen, "untracked.txt"))).toBe(false);
  expect(read(join(seen, "ignored.log"))).toBe("ignored stays\n");
  expect(treeState(root)).toEqual(before);
  expect(r.stderr).toContain(
    "3 unstaged changes and 3 untracked files set aside meanwhile, now back",
  );
  expect(existsSync(join(root, ".git", "cpilot", "stage"))).toBe(false);
});

test("hideUntracked: false leaves untracked files in place", () => {
  const seen = join(tempDir("cpilot-seen-"), "s");
  const root = repo([spy(seen)], { hideUntracked: false });
  writeFiles(root, { "b.txt": "staged\n", "untracked.txt": "here\n" });
  git(root, "add", "b.txt");
  expect(cpilot(["check", "--staged"], { cwd: root }).code).toBe(0);
  expect(read(join(seen, "untracked.txt"))).toBe("here\n");
});

test("binary, CRLF, no trailing newline, modes, symlinks, renames and deletions survive a failing check", () => {
  const root = repo([{ name: "fail", pattern: "*", run: "exit 1", timeout: 30 }]);
  writeFiles(root, { "crlf.txt": "a\r\nb\r\n", "run.sh": "#!/bin/sh\n" });
  writeFileSync(join(root, "bin.dat"), Buffer.from([0, 1, 2, 255, 254, 0, 10]));
  symlinkSync("a.txt", join(root, "link"));
  writeFiles(root, { "dir/deep/x.txt": "x\n", "dir/y.txt": "y\n" });
  git(root, "add", "-A");
  git(root, "commit", "-qm", "more");
  // staged: a rename, a binary change, a CRLF change; unstaged on top of each
  git(root, "mv", "b.txt", "renamed.txt");
  writeFileSync(join(root, "bin.dat"), Buffer.from([0, 1, 2, 3, 0]));
  writeFiles(root, { "crlf.txt": "a\r\nstaged\r\n" });
  git(root, "add", "-A");
  writeFileSync(join(root, "bin.dat"), Buffer.from([9, 9, 0, 9]));
  rmSync(join(root, "dir"), { recursive: true }); // a whole folder deleted, unstaged
  writeFiles(root, {
    "crlf.txt": "a\r\nstaged\r\nunstaged no newline",
    "renamed.txt": "moved and edited",
  });
  chmodSync(join(root, "run.sh"), 0o755); // a mode change only
  rmSync(join(root, "link"));
  symlinkSync("renamed.txt", join(root, "link")); // a symlink pointed elsewhere
  writeFileSync(join(root, "new-binary.bin"), Buffer.from([0, 0, 7]));
  chmodSync(join(root, "new-binary.bin"), 0o700);
  const before = treeState(root);
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    "7 unstaged changes and 1 untracked file set aside meanwhile, now back",
  );
  expect(treeState(root)).toEqual(before);
  expect(existsSync(join(root, "dir"))).toBe(false);
});

test("nothing to set aside: nothing is moved (the stage folder only holds the check's place)", () => {
  const probe = join(tempDir("cpilot-probe-"), "p");
  const root = repo([
    {
      name: "probe",
      pattern: "*.txt",
      timeout: 30,
      run: `if [ -e .git/cpilot/stage/tracked ] || [ -e .git/cpilot/stage/untracked ]; then echo aside > "${probe}"; else echo none > "${probe}"; fi`,
    },
  ]);
  writeFiles(root, { "a.txt": "staged whole\n" });
  git(root, "add", "a.txt");
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.code).toBe(0);
  expect(read(probe).trim()).toBe("none");
  expect(r.stderr).not.toContain("set aside");
  expect(existsSync(join(root, ".git", "cpilot", "stage"))).toBe(false);
});

test("nothing staged: said, exit 0, nothing runs", () => {
  const root = repo([{ name: "fail", pattern: "*", run: "exit 1", timeout: 30 }]);
  writeFiles(root, { "a.txt": "unstaged only\n" });
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("nothing staged");
});

const SED_FORMAT = {
  name: "format",
  pattern: "*.txt",
  timeout: 30,
  fixes: true,
  // "formats" by upper-casing the word "three"
  run: 'sed -i "s/three/THREE/" "$@"',
};

test("a fix to a wholly staged file is staged and reported", () => {
  const root = repo([SED_FORMAT]);
  writeFiles(root, { "a.txt": "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n" });
  git(root, "add", "a.txt");
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.code).toBe(0);
  expect(git(root, "show", ":a.txt")).toContain("THREE");
  expect(read(join(root, "a.txt"))).toContain("THREE");
  expect(git(root, "diff", "--name-only")).toBe("");
  expect(r.stderr).toContain("staged what callbacks fixed: a.txt");
});

test("stageFixed: false leaves the fix in the working tree, unstaged", () => {
  const root = repo([SED_FORMAT], { stageFixed: false });
  writeFiles(root, { "a.txt": "one\ntwo\nthree\nfour\n" });
  git(root, "add", "a.txt");
  expect(cpilot(["check", "--staged"], { cwd: root }).code).toBe(0);
  expect(git(root, "show", ":a.txt")).toContain("three");
  expect(read(join(root, "a.txt"))).toContain("THREE");
});

test("a partially staged file: the fix goes to the staged version, the unstaged hunks come back on top", () => {
  const root = repo([SED_FORMAT]);
  writeFiles(root, { "a.txt": "one\ntwo\nthree\nfour\nfive\nsix\nseven\nstaged line\n" });
  git(root, "add", "a.txt");
  writeFiles(root, {
    "a.txt": "unstaged first\none\ntwo\nthree\nfour\nfive\nsix\nseven\nstaged line\n",
  });
  chmodSync(join(root, "a.txt"), 0o755);
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.code).toBe(0);
  expect(git(root, "show", ":a.txt")).toBe(
    "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\nstaged line\n",
  );
  expect(read(join(root, "a.txt"))).toBe(
    "unstaged first\none\ntwo\nTHREE\nfour\nfive\nsix\nseven\nstaged line\n",
  );
  // the working copy keeps its own mode (an unstaged chmod)
  expect(git(root, "diff", "--summary")).toContain("mode change 100644 => 100755");
  expect(r.stderr).toContain("a.txt: your unstaged changes are back on top of the fix");
});

test("a fix that clashes with unstaged changes fails, keeps both versions and says how to go on", () => {
  const root = repo([SED_FORMAT]);
  writeFiles(root, { "a.txt": "one\ntwo\nthree\nfour\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "one\ntwo\nthree, edited unstaged\nfour\n" });
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.code).toBe(1);
  // the user's working copy is untouched, the fix is staged and kept
  expect(read(join(root, "a.txt"))).toBe("one\ntwo\nthree, edited unstaged\nfour\n");
  expect(git(root, "show", ":a.txt")).toBe("one\ntwo\nTHREE\nfour\n");
  const kept = /kept in (\S+a\.txt)/.exec(r.stderr)?.[1] as string;
  expect(read(kept)).toBe("one\ntwo\nTHREE\nfour\n");
  expect(r.stderr).toContain('Cannot put your unstaged changes to "a.txt" back on top of the fix');
  expect(r.stderr).toContain("hint: nothing is lost");
});

test("a submodule with work of its own is left alone", () => {
  const sub = repo([]);
  const root = repo([{ name: "fail", pattern: "*.txt", run: "exit 1", timeout: 30 }]);
  git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sub");
  git(root, "commit", "-qm", "sub");
  writeFiles(root, {
    "sub/a.txt": "dirty inside the submodule\n",
    "sub/extra.txt": "untracked in sub\n",
  });
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "unstaged\n" });
  const before = treeState(root);
  const subBefore = treeState(join(root, "sub"));
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("1 unstaged change set aside meanwhile, now back");
  expect(treeState(root)).toEqual(before);
  expect(treeState(join(root, "sub"))).toEqual(subBefore);
});

/** Start `check --staged` with a callback that says it is up, then sleeps. */
async function startSleeping(root: string, up: string) {
  const child = spawn(cpilotBinary(), ["check", "--staged"], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: process.env.HOME ?? "/root",
      ...runtimeEnv(),
    },
  });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const closed = new Promise<number | null>((r) => child.on("close", r));
  expect(await waitFor(() => existsSync(up) && read(up).trim() !== "", 30_000)).toBe(true);
  return { child, closed, stderr: () => stderr, sleeper: Number(read(up).trim()) };
}

function interruptible(up: string): unknown[] {
  return [
    { name: "slow", pattern: "*.txt", timeout: 120, run: `echo $$ > "${up}"; exec sleep 60` },
  ];
}

function messyTree(root: string): void {
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "unstaged\r\nno newline", "untracked.txt": "mine\n" });
  writeFileSync(join(root, "raw.bin"), Buffer.from([0, 255, 0]));
  rmSync(join(root, "gone.txt"));
}

test("Ctrl-C mid-run: runs stop, everything set aside is back, exit 130", async () => {
  const up = join(tempDir("cpilot-up-"), "up");
  const root = repo(interruptible(up));
  messyTree(root);
  const before = treeState(root);
  const run = await startSleeping(root, up);
  // while the callback runs, the working tree holds the staged content
  expect(read(join(root, "a.txt"))).toBe("staged\n");
  expect(existsSync(join(root, "untracked.txt"))).toBe(false);
  run.child.kill("SIGINT");
  expect(await run.closed).toBe(130);
  expect(treeState(root)).toEqual(before);
});

test("cpilot killed mid-run (SIGKILL): the next cpilot call puts everything back and says so", async () => {
  const up = join(tempDir("cpilot-up-"), "up");
  const root = repo(interruptible(up));
  messyTree(root);
  const before = treeState(root);
  const run = await startSleeping(root, up);
  run.child.kill("SIGKILL");
  await run.closed;
  process.kill(-run.sleeper, "SIGKILL"); // the callback's own group outlives cpilot
  expect(read(join(root, "a.txt"))).toBe("staged\n"); // still set aside
  const next = cpilot(["list"], { cwd: root });
  expect(next.stderr).toContain("put back 4 files an interrupted `cpilot check --staged`");
  expect(treeState(root)).toEqual(before);
  expect(readdirSync(join(root, ".git", "cpilot"))).not.toContain("stage");
});

test("cpilot check --restore puts back what a killed check set aside, and says when there is nothing", async () => {
  const up = join(tempDir("cpilot-up-"), "up");
  const root = repo(interruptible(up));
  messyTree(root);
  const before = treeState(root);
  const run = await startSleeping(root, up);
  run.child.kill("SIGKILL");
  await run.closed;
  process.kill(-run.sleeper, "SIGKILL");
  const restored = cpilot(["check", "--restore"], { cwd: root });
  expect(restored.code).toBe(0);
  expect(restored.stderr).toContain("put back 4 files");
  expect(treeState(root)).toEqual(before);
  const again = cpilot(["check", "--restore"], { cwd: root });
  expect(again.stderr).toContain("nothing to restore");
});

test("a very large untracked set is named, with the way out, and still comes back", () => {
  const root = repo([{ name: "ok", pattern: "*.txt", run: "true", timeout: 60 }]);
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  const many: Record<string, string> = {};
  for (let i = 0; i < 1001; i++) many[`build/out${i}.js`] = `${i}\n`;
  writeFiles(root, many);
  const before = treeState(root);
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("setting 1001 untracked files aside");
  expect(r.stderr).toContain("hideUntracked: false");
  expect(treeState(root)).toEqual(before);
});

test("a callback that times out: the work set aside is back all the same", () => {
  const root = repo([{ name: "hang", pattern: "*.txt", run: "sleep 30", timeout: 1 }]);
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "unstaged\n", "untracked.txt": "mine\n" });
  const before = treeState(root);
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("timed out");
  expect(treeState(root)).toEqual(before);
});

test("a callback that rewrites a file outside the commit: your version comes back, theirs is kept", () => {
  const root = repo([
    {
      name: "everything",
      pattern: "a.txt",
      timeout: 30,
      fixes: true,
      run: 'echo "rewritten by a project-wide fixer" > b.txt',
    },
  ]);
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "b.txt": "my unstaged work\n" });
  const before = treeState(root);
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.code).toBe(0);
  expect(treeState(root)).toEqual(before);
  const kept = /their version is kept in (\S+)/.exec(r.stderr)?.[1] as string;
  expect(read(join(kept, "b.txt"))).toBe("rewritten by a project-wide fixer\n");
});

test("an unstaged line right beside the fixed line merges (git merge-file alone calls it a clash)", () => {
  const root = repo([SED_FORMAT]);
  writeFiles(root, { "a.txt": "one\nthree\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "one\nthree\nunstaged right below\n" });
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.code).toBe(0);
  expect(git(root, "show", ":a.txt")).toBe("one\nTHREE\n");
  expect(read(join(root, "a.txt"))).toBe("one\nTHREE\nunstaged right below\n");
});

test("Ctrl-C twice (cpilot quits at once): the work still goes back on the way out", async () => {
  const up = join(tempDir("cpilot-up-"), "up");
  const root = repo([
    // ignores SIGTERM, so the first Ctrl-C cannot end the run within its grace period
    {
      name: "stubborn",
      pattern: "*.txt",
      timeout: 120,
      run: `trap '' TERM; echo $$ > "${up}"; sleep 60`,
    },
  ]);
  messyTree(root);
  const before = treeState(root);
  const run = await startSleeping(root, up);
  run.child.kill("SIGINT");
  expect(await waitFor(() => run.stderr().includes("Ctrl-C again"), 10_000)).toBe(true);
  run.child.kill("SIGINT");
  expect(await run.closed).toBe(130);
  try {
    process.kill(-run.sleeper, "SIGKILL");
  } catch {
    // already gone
  }
  expect(treeState(root)).toEqual(before);
});

test("a config below the repository's top (its own root): from the top with --config and from a folder below it, the callbacks see the staged content and the work comes back", () => {
  const seen = join(tempDir("cpilot-seen-"), "s");
  const root = committedRepo("cpilot-staged-sub-", {
    "app/callbacks.config.json": JSON.stringify({
      callbacks: [
        {
          name: "spy",
          pattern: "*.txt",
          timeout: 30,
          // it writes what it saw outside the project: a result the cache may not replay
          cache: false,
          // the files it is given (relative to app/) and what it sees of them and of the tree
          run: `mkdir -p "${seen}" && printf '%s\\n' "$@" > "${seen}/args" && cp a.txt "${seen}/a.txt" && if [ -e b.txt ]; then cp b.txt "${seen}/b.txt"; fi && if [ -e ../top.txt ]; then echo there > "${seen}/top"; fi`,
        },
      ],
    }),
    ".gitignore": ".cpilot/\napp/.cpilot/\n",
    "app/a.txt": "a\n",
    "app/b.txt": "b\n",
    "app/src/keep.txt": "k\n",
    "outside.txt": "o\n",
  });
  for (const { cwd, args } of [
    { cwd: root, args: ["--config", "app/callbacks.config.json"] },
    { cwd: join(root, "app", "src"), args: [] },
  ]) {
    rmSync(seen, { recursive: true, force: true });
    writeFiles(root, { "app/a.txt": "a staged\n", "outside.txt": "o staged\n" });
    git(root, "add", "app/a.txt", "outside.txt");
    writeFiles(root, {
      "app/a.txt": "a staged\nunstaged on top\n",
      "app/b.txt": "b unstaged\n",
      "top.txt": "untracked at the top\n",
      "app/new.txt": "untracked in app\n",
    });
    // app/.cpilot/ is the config root's state folder: runs write there
    const work = () =>
      Object.fromEntries(
        Object.entries(treeState(root)).filter(([path]) => !path.startsWith("app/.cpilot/")),
      );
    const before = work();
    const r = cpilot(["check", "--staged", ...args], { cwd });
    expect(r.code).toBe(0);
    expect(read(join(seen, "args"))).toBe("a.txt\n");
    expect(read(join(seen, "a.txt"))).toBe("a staged\n");
    expect(read(join(seen, "b.txt"))).toBe("b\n");
    expect(existsSync(join(seen, "top"))).toBe(false);
    expect(work()).toEqual(before);
    expect(r.stderr).toContain(
      "2 unstaged changes and 2 untracked files set aside meanwhile, now back",
    );
    git(root, "reset", "-q", "--hard");
    rmSync(join(root, "top.txt"));
    rmSync(join(root, "app", "new.txt"));
  }
});

test("a partially staged file and a check that rewrites nothing: git is asked once after the runs what the index holds, and the work comes back", () => {
  const root = repo([{ name: "ok", pattern: "*.txt", run: "true", timeout: 30 }]);
  writeFiles(root, { "a.txt": "one\ntwo STAGED\nthree\nfour\nfive\nsix\nseven\n" });
  git(root, "add", "a.txt");
  writeFiles(root, {
    "a.txt": "one\ntwo STAGED\nthree\nfour\nfive\nsix UNSTAGED\nseven\n",
    "b.txt": "bee unstaged\n",
  });
  // a git first on PATH that notes each call, then runs the real one
  const bin = tempDir("cpilot-git-log-");
  const log = join(bin, "calls");
  const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  writeFiles(bin, { git: `#!/bin/sh\necho "$1" >> "${log}"\nexec "${realGit}" "$@"\n` });
  chmodSync(join(bin, "git"), 0o755);
  const before = treeState(root);
  const r = cpilot(["check", "--staged"], {
    cwd: root,
    env: { PATH: `${bin}:/usr/local/bin:/usr/bin:/bin` },
  });
  expect(r.code).toBe(0);
  expect(treeState(root)).toEqual(before);
  expect(r.stderr).toContain("2 unstaged changes set aside meanwhile, now back");
  const calls = read(log).trim().split("\n");
  // the index and HEAD's tree, to look the results up (none yet: the runs are needed),
  // the survey, the staged versions checked out, the check records reading the tree for
  // results keyed by content (tests/engine/hook-git-calls.e2e.test.ts), HEAD's tree, new
  // here, asked once for the attribute files it holds (kept by tree after), and one look
  // after the runs: what the index holds for the files moved aside from where the work goes back
  expect(calls).toEqual([
    "diff-index",
    "rev-parse",
    "status",
    "checkout-index",
    "status",
    "ls-tree",
    "status",
    "ls-files",
    "ls-files",
  ]);
});

test("set-aside work and a check that fixes nothing leave git's index byte for byte as it was: no lock taken, so a git command beside it never finds index.lock", () => {
  const root = repo([{ name: "ok", pattern: "*.txt", run: "true", timeout: 30 }]);
  writeFiles(root, { "a.txt": "one\ntwo STAGED\nthree\nfour\nfive\nsix\nseven\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "one\ntwo STAGED\nthree\nfour\nfive\nsix UNSTAGED\nseven\n" });
  const index = join(root, ".git", "index");
  const before = readFileSync(index);
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("1 unstaged change set aside meanwhile, now back");
  // the staged version checked out for the runs differs from the index's record of the
  // file only in its stat data: `git diff` would rewrite the whole index to record it
  expect(readFileSync(index).equals(before)).toBe(true);
});
