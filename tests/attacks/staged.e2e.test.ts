/**
 * Attacks on `cpilot check --staged` against the compiled binary, as an unlucky user meets
 * them: cpilot SIGKILLed while a child it started (git, a callback) is still at work, so
 * that child writes into the work tree after the next cpilot call put the user's work back.
 * "Nothing the user wrote is ever lost" (issue 17) must hold whatever those children do.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cpilot, cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { processAlive, tempDir, waitFor, writeFiles } from "../helpers/tmp.ts";
import { treeState } from "../helpers/tree-state.ts";

const git = (root: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
});

function repo(config: unknown, files: Record<string, string> = {}): string {
  const root = tempDir("cpilot-attack-staged-", { git: true });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify(config),
    ".gitignore": ".cpilot/\n",
    "a.txt": "a\n",
    ...files,
  });
  git(root, "add", "-A");
  git(root, "commit", "-qm", "init");
  return root;
}

function startCheck(
  root: string,
  env: Record<string, string> = {},
): { child: ChildProcess; closed: Promise<number | null> } {
  const child = spawn(cpilotBinary(), ["check", "--staged"], {
    cwd: root,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: process.env.HOME ?? "/root",
      ...runtimeEnv(),
      ...env,
    },
    stdio: "ignore",
  });
  const closed = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
  return { child, closed };
}

const pidIn = (path: string): number => Number(readFileSync(path, "utf8").trim());

test("a fixer still running when cpilot is SIGKILLed cannot write over the work the next call put back", async () => {
  const marks = tempDir("cpilot-marks-");
  const up = join(marks, "up");
  // A formatter as many are: read the file, work a while, write the result. The while is
  // long enough for the next call to start on a busy machine; had the fixer lived, the test
  // waits to see what it wrote.
  const root = repo({
    callbacks: [
      {
        name: "slow-format",
        pattern: "a.txt",
        timeout: 60,
        fixes: true,
        run: `c=$(cat a.txt); echo $$ > "${up}"; sleep 20; printf '%s\\n' "$c" | tr a-z A-Z > a.txt`,
      },
    ],
  });
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "staged\nmy precious unstaged line\n" });
  const before = treeState(root);
  const run = startCheck(root);
  expect(
    await waitFor(() => existsSync(up) && readFileSync(up, "utf8").endsWith("\n"), 30_000),
  ).toBe(true);
  const fixer = pidIn(up);
  leftovers.push(-fixer);
  run.child.kill("SIGKILL");
  await run.closed;
  const restored = cpilot(["check", "--restore"], { cwd: root });
  expect(restored.stderr).toContain("put back 1 file");
  // the fixer, had it lived, would have written its uppercased staged text by now
  expect(await waitFor(() => !processAlive(fixer), 30_000)).toBe(true);
  await new Promise((r) => setTimeout(r, 200));
  expect(treeState(root)).toEqual(before);
}, 60_000);

test("Ctrl-C twice while a fixer that ignores SIGTERM still runs: it cannot write over the work put back on the way out", async () => {
  const marks = tempDir("cpilot-marks-");
  const up = join(marks, "up");
  const root = repo({
    callbacks: [
      {
        name: "stubborn-format",
        pattern: "a.txt",
        timeout: 120,
        fixes: true,
        run: `trap '' TERM INT; c=$(cat a.txt); echo $$ > "${up}"; sleep 20; printf '%s\\n' "$c" | tr a-z A-Z > a.txt`,
      },
    ],
  });
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "staged\nmy precious unstaged line\n" });
  const before = treeState(root);
  const run = startCheck(root);
  expect(
    await waitFor(() => existsSync(up) && readFileSync(up, "utf8").endsWith("\n"), 30_000),
  ).toBe(true);
  const fixer = pidIn(up);
  leftovers.push(-fixer);
  run.child.kill("SIGINT");
  await new Promise((r) => setTimeout(r, 300)); // the first one starts stopping the runs
  run.child.kill("SIGINT");
  expect(await run.closed).toBe(130);
  expect(await waitFor(() => !processAlive(fixer), 30_000)).toBe(true);
  await new Promise((r) => setTimeout(r, 200));
  expect(treeState(root)).toEqual(before);
}, 60_000);

test("git still checking out the staged version when cpilot is SIGKILLed cannot write over the work put back", async () => {
  const marks = tempDir("cpilot-marks-");
  const started = join(marks, "checkout-started");
  const ended = join(marks, "checkout-ended");
  // A slow `git checkout-index` (a big tree, a slow disk, a smudge filter): a git on PATH
  // that waits before doing the real work, and says when it is done.
  const bin = join(marks, "bin");
  const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  writeFiles(bin, {
    git: `#!/bin/sh\ncase " $* " in *" checkout-index "*) touch "${started}"; sleep 3; "${realGit}" "$@"; s=$?; touch "${ended}"; exit $s;; esac\nexec "${realGit}" "$@"\n`,
  });
  chmodSync(join(bin, "git"), 0o755);
  const root = repo(
    { callbacks: [{ name: "ok", pattern: "*.txt", timeout: 60, run: "true" }] },
    { "b.txt": "committed\n", "run.sh": "#!/bin/sh\n" },
  );
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "b.txt": "committed\nmy unstaged work\n" });
  chmodSync(join(root, "run.sh"), 0o755); // a mode-only change
  const before = treeState(root);
  const env = { PATH: `${bin}:/usr/local/bin:/usr/bin:/bin` };
  const run = startCheck(root, env);
  expect(await waitFor(() => existsSync(started), 30_000)).toBe(true);
  run.child.kill("SIGKILL");
  await run.closed;
  const restored = cpilot(["check", "--restore"], { cwd: root, env });
  expect(restored.stderr).toContain("put back 2 files");
  expect(await waitFor(() => existsSync(ended), 30_000)).toBe(true);
  expect(treeState(root)).toEqual(before);
  // what the late git left in cpilot's folder is cleared without a word by the next call
  const next = cpilot(["list"], { cwd: root, env });
  expect(next.stderr).not.toContain("set aside");
  expect(existsSync(join(root, ".git", "cpilot", "stage"))).toBe(false);
}, 60_000);

describe("a tracked file deleted and something else in its place: checking out the staged version must not delete it", () => {
  const cases: [string, Record<string, unknown>, (root: string) => void][] = [
    [
      "a folder of ignored build output",
      {},
      (root) => writeFiles(root, { "lib/out.log": "ignored, but mine\n" }),
    ],
    [
      "a folder of untracked files under hideUntracked: false",
      { hideUntracked: false },
      (root) => writeFiles(root, { "lib/new.ts": "untracked, not hidden\n" }),
    ],
    [
      "a nested repository",
      {},
      (root) => {
        mkdirSync(join(root, "lib"));
        git(join(root, "lib"), "init", "-q");
        writeFiles(root, { "lib/work.txt": "in a nested repository\n" });
      },
    ],
    [
      "a file where its folder was, under hideUntracked: false",
      { hideUntracked: false },
      (root) => writeFiles(root, { pkg: "a file now\n" }), // pkg/x.txt was deleted
    ],
  ];
  for (const [name, extra, replace] of cases) {
    test(name, () => {
      const root = repo(
        { callbacks: [{ name: "ok", pattern: "*.txt", timeout: 60, run: "true" }], ...extra },
        { ".gitignore": ".cpilot/\n*.log\n", lib: "was a file\n", "pkg/x.txt": "was in pkg\n" },
      );
      writeFiles(root, { "a.txt": "staged\n" });
      git(root, "add", "a.txt");
      rmSync(join(root, "lib"));
      rmSync(join(root, "pkg"), { recursive: true });
      replace(root);
      const before = treeState(root);
      const ignored = existsSync(join(root, "lib/out.log"));
      const r = cpilot(["check", "--staged"], { cwd: root });
      expect(r.stderr).not.toContain("internal error");
      expect(r.code).toBe(0);
      expect(treeState(root)).toEqual(before);
      if (ignored)
        expect(readFileSync(join(root, "lib/out.log"), "utf8")).toBe("ignored, but mine\n");
    });
  }
});

test("two `check --staged` at once: the second never sees, fixes or stages the work the first set aside", async () => {
  const marks = tempDir("cpilot-marks-");
  const up = join(marks, "up");
  const root = repo({
    callbacks: [
      {
        name: "trim",
        pattern: "a.txt",
        timeout: 60,
        fixes: true,
        // the first run waits to be told to go on, so the second check starts meanwhile;
        // the second's run takes a while, so the first is done before it writes
        run: `if [ ! -e "${up}" ]; then touch "${up}"; while [ ! -e "${up}.go" ]; do sleep 0.05; done; else touch "${up}.2"; sleep 2; fi; sed -i 's/ *$//' a.txt`,
      },
    ],
  });
  writeFiles(root, { "a.txt": "one  \nstaged\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "one  \nstaged\nunstaged, not for this commit\n" });
  const first = startCheck(root);
  expect(await waitFor(() => existsSync(up), 30_000)).toBe(true);
  const second = startCheck(root);
  // the second check either refuses at once or gets as far as its run
  await Promise.race([second.closed, waitFor(() => existsSync(`${up}.2`), 3000)]);
  writeFiles(marks, { "up.go": "" });
  expect(await first.closed).toBe(0);
  await second.closed;
  // whatever the second did, the commit holds only what was staged (fixed), and the
  // unstaged line is in the work tree only
  expect(git(root, "show", ":a.txt")).toBe("one\nstaged\n");
  expect(readFileSync(join(root, "a.txt"), "utf8")).toBe(
    "one\nstaged\nunstaged, not for this commit\n",
  );
}, 60_000);

test("the terminal closes mid-check (SIGHUP): the work is back when cpilot has gone, without another call", async () => {
  const marks = tempDir("cpilot-marks-");
  const up = join(marks, "up");
  const root = repo({
    callbacks: [{ name: "slow", pattern: "*.txt", timeout: 60, run: `echo $$ > "${up}"; sleep 2` }],
  });
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "staged\nunstaged\n", "untracked.txt": "mine\n" });
  const before = treeState(root);
  const run = startCheck(root);
  expect(
    await waitFor(() => existsSync(up) && readFileSync(up, "utf8").endsWith("\n"), 30_000),
  ).toBe(true);
  leftovers.push(-pidIn(up));
  run.child.kill("SIGHUP");
  await run.closed;
  expect(treeState(root)).toEqual(before);
  expect(existsSync(join(root, ".git", "cpilot", "stage"))).toBe(false);
}, 60_000);

test("a .git/cpilot that is not a folder never crashes a cpilot call: the pre-write gate still denies", () => {
  // never replayed: the staged check must set work aside, in .git/cpilot
  const root = repo({
    callbacks: [{ name: "ok", pattern: "*.txt", run: ["true"], timeout: 30, cache: false }],
  });
  writeFiles(root, { ".git/cpilot": "a file, not a folder\n" });
  const payload = {
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(root, ".git/hooks/pre-commit"), content: "evil\n" },
    session_id: "s",
    cwd: root,
  };
  const r = cpilot(["hook", "claude"], { cwd: root, input: JSON.stringify(payload) });
  expect(r.stderr).not.toContain("internal error");
  expect(`${r.code} ${r.stdout}`).toMatch(/deny|^2 /);
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  const check = cpilot(["check", "--staged"], { cwd: root });
  expect(check.stderr).not.toContain("internal error");
  expect(check.stderr).toContain("Cannot set unstaged changes aside");
  expect(check.code).toBe(2);
});

// A linked worktree on another file system than its repository's git folder (the repo on
// disk, the worktree in a tmpfs /dev/shm or /tmp): every move between the two is a copy.
const otherFs = (() => {
  try {
    return (
      statSync("/dev/shm").isDirectory() && statSync("/dev/shm").dev !== statSync(tmpdir()).dev
    );
  } catch {
    return false;
  }
})();

test.skipIf(!otherFs)(
  "a worktree on another file system than its git folder: fixes merge, everything comes back",
  () => {
    const root = repo(
      {
        callbacks: [
          {
            name: "fix",
            pattern: "a.txt",
            timeout: 60,
            fixes: true,
            run: "sed -i s/staged/STAGED/ a.txt",
          },
        ],
      },
      { "a.txt": "a\n\n\n\nz\n", "b.txt": "b\n" },
    );
    const wt = join(mkdtempSync("/dev/shm/cpilot-attack-wt-"), "wt");
    try {
      git(root, "worktree", "add", "-q", wt, "-b", "wt");
      writeFiles(wt, { "a.txt": "a\nstaged\n\n\nz\n" });
      git(wt, "add", "a.txt");
      writeFiles(wt, {
        "a.txt": "a\nstaged\n\n\nz\nunstaged\n",
        "b.txt": "b\nunstaged\n",
        "u.txt": "mine\n",
      });
      chmodSync(join(wt, "b.txt"), 0o755);
      const r = cpilot(["check", "--staged"], { cwd: wt });
      expect(r.stderr).not.toContain("internal error");
      expect(r.code).toBe(0);
      expect(git(wt, "show", ":a.txt")).toBe("a\nSTAGED\n\n\nz\n");
      expect(readFileSync(join(wt, "a.txt"), "utf8")).toBe("a\nSTAGED\n\n\nz\nunstaged\n");
      expect(readFileSync(join(wt, "b.txt"), "utf8")).toBe("b\nunstaged\n");
      expect(statSync(join(wt, "b.txt")).mode & 0o777).toBe(0o755);
      expect(readFileSync(join(wt, "u.txt"), "utf8")).toBe("mine\n");
    } finally {
      rmSync(dirname(wt), { recursive: true, force: true });
    }
  },
);

test("a check killed after its last file went back (only empty folders left) raises no false alarm", () => {
  const root = repo({ callbacks: [] });
  // what the put-back leaves for a moment: the journal removed, the emptied folders not yet
  const stage = join(root, ".git", "cpilot", "stage");
  mkdirSync(join(stage, "tracked", "src", "deep"), { recursive: true });
  mkdirSync(join(stage, "untracked", "build"), { recursive: true });
  mkdirSync(join(stage, "deleted"), { recursive: true });
  const r = cpilot(["list"], { cwd: root });
  expect(r.stderr).not.toContain("interrupted");
  expect(existsSync(stage)).toBe(false);
  expect(existsSync(join(root, ".git", "cpilot", "kept"))).toBe(false);
  // one file left is still kept and said
  mkdirSync(join(stage, "untracked", "build"), { recursive: true });
  writeFileSync(join(stage, "untracked", "build", "left.txt"), "mine\n");
  const again = cpilot(["list"], { cwd: root });
  expect(again.stderr).toContain("no record of where they go");
});

test("after a killed check, six cpilot calls at once (parallel agent hooks) put the work back once, whole", async () => {
  const root = repo({
    callbacks: [{ name: "slow", pattern: "a.txt", timeout: 60, run: "sleep 30" }],
  });
  const files: Record<string, string> = {};
  for (let i = 0; i < 300; i++) files[`t/f${i}.txt`] = `${i}\n`;
  writeFiles(root, files);
  git(root, "add", "-A");
  git(root, "commit", "-qm", "many");
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  for (let i = 0; i < 300; i++) files[`t/f${i}.txt`] = `${i}\nunstaged\n`;
  writeFiles(root, files);
  const before = treeState(root);
  const run = startCheck(root);
  const running = join(root, ".cpilot", "running");
  expect(
    await waitFor(
      () => existsSync(running) && readdirSync(running).some((n) => n.endsWith(".json")),
      30_000,
    ),
  ).toBe(true);
  run.child.kill("SIGKILL");
  await run.closed;
  const calls = Array.from({ length: 6 }, () => {
    const child = spawn(cpilotBinary(), ["list"], {
      cwd: root,
      env: {
        PATH: "/usr/local/bin:/usr/bin:/bin",
        HOME: process.env.HOME ?? "/root",
        ...runtimeEnv(),
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    return new Promise<string>((r) => child.on("close", () => r(stderr)));
  });
  const said = await Promise.all(calls);
  expect(treeState(root)).toEqual(before);
  expect(existsSync(join(root, ".git", "cpilot", "kept"))).toBe(false);
  expect(said.filter((s) => s.includes("put back 300 files")).length).toBe(1);
}, 90_000);

test("a callback that swaps a folder of set-aside files for a link out: the work comes back inside, nothing outside is touched", () => {
  const outside = tempDir("cpilot-attack-outside-");
  writeFiles(outside, {
    "f.txt": "outside, must survive\n",
    "gone.txt": "outside too\n",
    "p.txt": "outside as well\n",
  });
  const root = repo(
    {
      callbacks: [
        { name: "swap", pattern: "a.txt", timeout: 60, run: `rm -rf t && ln -s "${outside}" t` },
      ],
    },
    { "t/f.txt": "f\n", "t/gone.txt": "tracked, deleted unstaged\n", "t/p.txt": "p\n" },
  );
  writeFiles(root, { "a.txt": "staged\n", "t/p.txt": "p staged\n" });
  git(root, "add", "a.txt", "t/p.txt");
  writeFiles(root, { "t/p.txt": "p staged\np unstaged\n" }); // partially staged
  writeFiles(root, { "t/f.txt": "f\nmy work\n", "t/new.txt": "untracked\n" });
  rmSync(join(root, "t/gone.txt"));
  const before = treeState(root);
  cpilot(["check", "--staged"], { cwd: root });
  expect(readdirSync(outside).sort()).toEqual(["f.txt", "gone.txt", "p.txt"]);
  expect(readFileSync(join(outside, "p.txt"), "utf8")).toBe("outside as well\n");
  expect(readFileSync(join(outside, "f.txt"), "utf8")).toBe("outside, must survive\n");
  expect(readFileSync(join(outside, "gone.txt"), "utf8")).toBe("outside too\n");
  expect(treeState(root)).toEqual(before);
});

/** A path below `root` from text and raw bytes: `inRoot(r, ["caf", [0xe9]])` is `r/caf\xe9`. */
function inRoot(root: string, parts: readonly (string | readonly number[])[]): Buffer {
  return Buffer.concat([
    Buffer.from(`${root}/`),
    ...parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from([...p]))),
  ]);
}

/** A work tree as bytes (names that are not UTF-8 included): each file's mode and sha256, the index and status. */
function byteState(root: string): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (dir: Buffer, rel: Buffer): void => {
    for (const name of readdirSync(dir, { encoding: "buffer" })) {
      const path = rel.length === 0 ? name : Buffer.concat([rel, Buffer.from("/"), name]);
      if ([".git", ".cpilot"].includes(path.toString("latin1"))) continue;
      const abs = Buffer.concat([dir, Buffer.from("/"), name]);
      const stat = lstatSync(abs);
      const key = path.toString("hex");
      if (stat.isDirectory()) walk(abs, path);
      else {
        const sha = createHash("sha256").update(readFileSync(abs)).digest("hex");
        state[key] = `${(stat.mode & 0o7777).toString(8)} ${sha}`;
      }
    }
  };
  walk(Buffer.from(root), Buffer.alloc(0));
  const gitBytes = (...args: string[]) => execFileSync("git", args, { cwd: root }).toString("hex");
  state["(index)"] = gitBytes("ls-files", "--stage", "-z");
  state["(status)"] = gitBytes("status", "--porcelain=v1", "-z", "--untracked-files=all");
  return state;
}

test("file names that are not UTF-8 are set aside and put back byte for byte", () => {
  // The callback passes only when none of the work that is not staged is in the tree.
  const root = repo({
    callbacks: [
      {
        name: "staged-only",
        pattern: "*.txt",
        timeout: 60,
        run: "! grep -rl --exclude-dir=.git --exclude-dir=.cpilot --exclude=callbacks.config.json MINE .",
      },
    ],
  });
  const at = (...parts: (string | number[])[]): Buffer => inRoot(root, parts);
  const cafe = at("caf", [0xe9], ".txt"); // tracked, unstaged change
  const folder = at("t", [0xe9]); // a tracked folder with such a name
  mkdirSync(folder);
  writeFileSync(cafe, "v1\n");
  writeFileSync(at("t", [0xe9], "/in", [0xff], ".txt"), "in folder\n");
  git(root, "add", "-A");
  git(root, "commit", "-qm", "bytes");
  writeFileSync(cafe, "v1\nMINE unstaged\n");
  writeFileSync(at("t", [0xe9], "/in", [0xff], ".txt"), "in folder\nMINE unstaged\n");
  writeFileSync(at("new", [0xff], ".txt"), "MINE untracked\n", { mode: 0o755 });
  mkdirSync(at("u", [0xfe]));
  writeFileSync(at("u", [0xfe], "/x", [0xe9]), "MINE untracked in a folder\n");
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  const before = byteState(root);
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.stderr).not.toContain("Cannot");
  expect(r.stderr).toContain("2 unstaged changes");
  expect(r.stderr).toContain("2 untracked files");
  expect(r.code, r.stderr).toBe(0);
  expect(byteState(root)).toEqual(before);
  expect(existsSync(join(root, ".git", "cpilot", "stage"))).toBe(false);
  expect(existsSync(join(root, ".git", "cpilot", "kept"))).toBe(false);
});

// `git commit <paths>` runs the hook against a temporary index; git's own index (written
// with those paths before the hook) waits as index.lock. A fix staged in the temporary one
// only was committed while the own index kept the unfixed text: `git status` showed the fix
// staged for reverting, and the next plain `git commit` reverted it.
describe("a fix made during `git commit <paths>`", () => {
  const commitPaths = (root: string, ...paths: string[]) => {
    const bin = dirname(cpilotBinary());
    // as on a developer's machine: under CI, a fix fails the check (failOnChange)
    const { CI: _ci, ...env } = process.env;
    return spawnSync("git", ["commit", "-qm", "partial", "--", ...paths], {
      cwd: root,
      env: { ...env, PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`, ...runtimeEnv() },
      encoding: "utf8",
    });
  };
  const fixer = {
    callbacks: [
      { name: "fix", pattern: "*.txt", timeout: 60, fixes: true, run: 'sed -i s/bad/good/ "$@"' },
    ],
  };

  test("is in the commit and in git's own index: nothing left to stage or revert", () => {
    const root = repo(fixer, { "b.txt": "b\n" });
    expect(cpilot(["install", "git"], { cwd: root }).code).toBe(0);
    writeFiles(root, { "a.txt": "bad\n", "b.txt": "b staged, not in this commit\n" });
    git(root, "add", "b.txt");
    const commit = commitPaths(root, "a.txt");
    expect(commit.status, commit.stderr).toBe(0);
    expect(git(root, "show", "HEAD:a.txt")).toBe("good\n");
    expect(git(root, "show", ":a.txt")).toBe("good\n");
    // the rest of the index is as the person left it: b.txt still staged, not committed
    expect(git(root, "status", "--porcelain")).toBe("M  b.txt\n");
    expect(git(root, "show", "HEAD:b.txt")).toBe("b\n");
  });

  test("that fails is not committed, and the index is as before the commit", () => {
    const root = repo({
      callbacks: [
        {
          name: "fix-then-fail",
          pattern: "*.txt",
          timeout: 60,
          run: 'sed -i s/bad/good/ "$@"; exit 1',
        },
      ],
    });
    expect(cpilot(["install", "git"], { cwd: root }).code).toBe(0);
    writeFiles(root, { "a.txt": "bad\n" });
    const commit = commitPaths(root, "a.txt");
    expect(commit.status).not.toBe(0);
    expect(git(root, "log", "--format=%s")).toBe("init\n");
    expect(git(root, "show", ":a.txt")).toBe("a\n");
    expect(existsSync(join(root, ".git", "index.lock"))).toBe(false);
  });
});

test("husky: a .husky/pre-commit that ends in `exit 0` still runs the check, and uninstall restores it", () => {
  const root = repo({
    callbacks: [{ name: "no-fail", pattern: "*.txt", timeout: 60, run: '! grep -q FAIL "$@"' }],
  });
  mkdirSync(join(root, ".husky", "_"), { recursive: true });
  // husky v9's shim: run .husky/<hook> with sh -e
  writeFiles(root, {
    ".husky/_/pre-commit": '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n',
    ".husky/_/h":
      '#!/usr/bin/env sh\nn=$(basename "$0"); s=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\nsh -e "$s" "$@"\n',
  });
  chmodSync(join(root, ".husky/_/pre-commit"), 0o755);
  chmodSync(join(root, ".husky/_/h"), 0o755);
  git(root, "config", "core.hooksPath", ".husky/_");
  const user = '#!/usr/bin/env sh\necho "lint ran"\nexit 0\n';
  writeFiles(root, { ".husky/pre-commit": user });
  expect(cpilot(["install", "git"], { cwd: root }).code).toBe(0);
  writeFiles(root, { "a.txt": "FAIL\n" });
  git(root, "add", "a.txt");
  const bin = dirname(cpilotBinary());
  const commit = spawnSync("git", ["commit", "-qm", "broken"], {
    cwd: root,
    env: { ...process.env, PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`, ...runtimeEnv() },
    encoding: "utf8",
  });
  expect(commit.status).not.toBe(0);
  expect(git(root, "log", "--format=%s")).toBe("init\n");
  expect(cpilot(["uninstall", "git"], { cwd: root }).code).toBe(0);
  expect(readFileSync(join(root, ".husky", "pre-commit"), "utf8")).toBe(user);
});

test("install git with a global core.hooksPath: refused, so other repositories' commits are not stopped", () => {
  const home = tempDir("cpilot-attack-home-");
  const shared = join(home, "git-hooks");
  mkdirSync(shared);
  writeFiles(home, { ".gitconfig": `[core]\n\thooksPath = ${shared}\n` });
  const root = repo({ callbacks: [] });
  const r = cpilot(["install", "git"], { cwd: root, env: { HOME: home } });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("outside this repository");
  expect(readdirSync(shared)).toEqual([]);
  // a folder inside the repository is the project's own: fine
  git(root, "config", "core.hooksPath", ".githooks");
  const own = cpilot(["install", "git"], { cwd: root, env: { HOME: home } });
  expect(own.code).toBe(0);
  expect(existsSync(join(root, ".githooks", "pre-commit"))).toBe(true);
});

test("a fix to a partially staged file whose name is not UTF-8 is staged, its unstaged change back on top", () => {
  const root = repo({
    callbacks: [
      {
        name: "fix",
        pattern: "*.txt",
        timeout: 60,
        fixes: true,
        run: "sed -i 's/^2$/two/' \"$@\"",
      },
    ],
  });
  const name = Buffer.from([0x70, 0xe9, 0x2e, 0x74, 0x78, 0x74]); // p\xe9.txt
  const file = Buffer.concat([Buffer.from(`${root}/`), name]);
  writeFileSync(file, "1\n2\n3\n4\n5\n");
  git(root, "add", "-A");
  git(root, "commit", "-qm", "bytes");
  writeFileSync(file, "one\n2\n3\n4\n5\n");
  git(root, "add", "-A");
  writeFileSync(file, "one\n2\n3\n4\nfive\n");
  const r = cpilot(["check", "--staged"], { cwd: root });
  expect(r.code, r.stderr).toBe(0);
  expect(readFileSync(file, "utf8")).toBe("one\ntwo\n3\n4\nfive\n");
  // the index entry, found by its name's bytes (latin1 keeps each byte as one character)
  const index = execFileSync("git", ["ls-files", "-s", "-z"], { cwd: root });
  const entry = index
    .toString("latin1")
    .split("\0")
    .find((l) => l.endsWith("\tp\u00e9.txt"));
  const blob = entry?.split(" ")[1] ?? "";
  expect(execFileSync("git", ["cat-file", "blob", blob], { cwd: root }).toString()).toBe(
    "one\ntwo\n3\n4\n5\n",
  );
  expect(existsSync(join(root, ".git", "cpilot", "kept"))).toBe(false);
});

test("after a SIGKILL, `check --restore` puts back set-aside files whose names are not UTF-8, byte for byte", async () => {
  const marks = tempDir("cpilot-marks-");
  const up = join(marks, "up");
  const root = repo({
    callbacks: [
      { name: "slow", pattern: "a.txt", timeout: 60, run: `echo $$ > "${up}"; sleep 30` },
    ],
  });
  const at = (...parts: (string | number[])[]): Buffer => inRoot(root, parts);
  writeFileSync(at("caf", [0xe9], ".txt"), "v1\n");
  git(root, "add", "-A");
  git(root, "commit", "-qm", "bytes");
  writeFileSync(at("caf", [0xe9], ".txt"), "v1\nunstaged\n");
  mkdirSync(at("u", [0xfe]));
  writeFileSync(at("u", [0xfe], "/x", [0xe9]), "untracked in a folder\n", { mode: 0o700 });
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  const before = byteState(root);
  const run = startCheck(root);
  expect(
    await waitFor(() => existsSync(up) && readFileSync(up, "utf8").endsWith("\n"), 30_000),
  ).toBe(true);
  leftovers.push(-pidIn(up));
  // the work is set aside while the callback runs
  expect(existsSync(at("u", [0xfe], "/x", [0xe9]))).toBe(false);
  run.child.kill("SIGKILL");
  await run.closed;
  const restored = cpilot(["check", "--restore"], { cwd: root });
  expect(restored.stderr).toContain("put back 2 files");
  expect(byteState(root)).toEqual(before);
  expect(existsSync(join(root, ".git", "cpilot", "kept"))).toBe(false);
}, 60_000);
