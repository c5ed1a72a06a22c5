/**
 * Shell edits hidden by what the agent's shell can tell git (`git config`, submodules):
 * `cpilot hook codex` payloads around commands run in a real git repository by the test
 * itself, as the agent's shell would have run them.
 */
import { afterEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentProject, LINT } from "../agents/gemini/_agent-project.ts";
import { tempDir } from "../helpers/tmp.ts";
import { afterShell, committedCodexProject, git, stop, turnStarts } from "./_codex-shell-turn.ts";

let project: AgentProject | undefined;
afterEach(() => project?.remove());

function committed(files: Record<string, string> = {}): AgentProject {
  project = committedCodexProject(
    { callbacks: [LINT] },
    { "src/a.ts": "export const a = 111;\n", ...files },
  );
  return project;
}

/** Waits until the clock's whole second is past the one `ms` falls in. */
function nextSecond(ms: number): void {
  const wait = new Int32Array(new SharedArrayBuffer(4));
  while (Math.floor(Date.now() / 1000) <= Math.floor(ms / 1000)) Atomics.wait(wait, 0, 0, 50);
}

/** The file's time and the index's set long before now, as a file not touched in a while. */
function settled(p: AgentProject, rel: string): void {
  spawnSync("touch", ["-d", "2020-01-01", rel], { cwd: p.dir });
  git(p, "update-index", "--refresh");
}

test("an fsmonitor hook the agent configured says nothing changed: cpilot neither trusts nor runs it", () => {
  const p = committed();
  settled(p, "src/a.ts");
  turnStarts(p);
  const ran = p.path("liar-ran");
  writeFileSync(
    p.path(".git/liar"),
    `#!/bin/sh\necho x >> ${JSON.stringify(ran)}\nprintf '%s\\0' "$2"\n`,
  );
  chmodSync(p.path(".git/liar"), 0o755);
  git(p, "config", "core.fsmonitor", ".git/liar");
  git(p, "status"); // the index now holds "fsmonitor says clean" for every file
  writeFileSync(p.path("src/a.ts"), "export const a = BAD;\n");
  const runs = existsSync(ran) ? readFileSync(ran, "utf8") : "";
  expect(afterShell(p)).toContain("BAD in src/a.ts");
  expect(stop(p)).toContain("BAD in src/a.ts");
  expect(existsSync(ran) ? readFileSync(ran, "utf8") : "").toBe(runs);
});

test("stat checks the agent loosened (trustctime off, checkStat minimal): a same-size write with its old time put back is seen", () => {
  const p = committed();
  settled(p, "src/a.ts");
  // git keeps whole seconds of a file's change time: a write within the second it last
  // recorded the file is a case of its own (its own test below), not the one this one is about
  nextSecond(statSync(p.path("src/a.ts")).ctimeMs);
  turnStarts(p);
  git(p, "config", "core.trustctime", "false");
  git(p, "config", "core.checkStat", "minimal");
  spawnSync("touch", ["-r", "src/a.ts", "stamp"], { cwd: p.dir });
  writeFileSync(p.path("src/a.ts"), "export const a = BAD;\n"); // same size as before
  spawnSync("touch", ["-r", "stamp", "src/a.ts"], { cwd: p.dir });
  rmSync(p.path("stamp"));
  expect(afterShell(p)).toContain("BAD in src/a.ts");
});

test("a clean filter the agent configured hands git the committed bytes: the change is seen", () => {
  const p = committed();
  turnStarts(p);
  git(p, "config", "filter.hide.clean", "git show HEAD:src/a.ts");
  writeFileSync(p.path(".git/info/attributes"), "*.ts filter=hide\n");
  writeFileSync(p.path("src/a.ts"), "export const a = BAD;\n");
  expect(afterShell(p)).toContain("BAD in src/a.ts");
});

test("a submodule's files changed through the shell are named, and so are those a commit in it moved", () => {
  const lib = tempDir("cpilot-submodule-", { git: true });
  writeFileSync(join(lib, "x.ts"), "export const x = 1;\n");
  spawnSync("git", ["add", "-A"], { cwd: lib });
  spawnSync("git", ["commit", "-qm", "lib"], { cwd: lib });
  const p = committed();
  git(p, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib");
  git(p, "commit", "-qm", "with lib");
  turnStarts(p);
  writeFileSync(p.path("lib/x.ts"), "export const x = BAD;\n");
  expect(afterShell(p)).toContain("files your command changed: lib/x.ts");
  // committed inside the submodule: its work tree is clean again, its commit moved
  writeFileSync(p.path("lib/y.ts"), "export const y = BAD;\n");
  spawnSync("git", ["add", "-A"], { cwd: p.path("lib") });
  spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "sneak"], {
    cwd: p.path("lib"),
  });
  // y.ts was never in the work tree's changes between two looks: only the commit says so
  expect(afterShell(p)).toContain("files your command changed: lib/y.ts");
});

test("a same-size write within the second git recorded the file, its old mtime put back, is seen", () => {
  const p = committed();
  settled(p, "src/a.ts");
  turnStarts(p);
  const file = p.path("src/a.ts");
  // The agent's command: git records the file, which is then rewritten within that same
  // whole second. The clock may cross a second between the two: then it is done again.
  for (;;) {
    spawnSync("touch", ["-d", "2020-01-01", "src/a.ts"], { cwd: p.dir });
    git(p, "update-index", "--refresh");
    const recorded = Math.floor(statSync(file).ctimeMs / 1000);
    writeFileSync(file, "export const a = BAD;\n"); // same size as before
    spawnSync("touch", ["-d", "2020-01-01", "src/a.ts"], { cwd: p.dir });
    if (Math.floor(statSync(file).ctimeMs / 1000) === recorded) break;
    git(p, "checkout", "--", "src/a.ts");
  }
  const status = spawnSync("git", ["status", "--porcelain"], { cwd: p.dir, encoding: "utf8" });
  expect(status.stdout).not.toContain("src/a.ts"); // git itself cannot tell
  expect(afterShell(p)).toContain("BAD in src/a.ts");
  expect(stop(p)).toContain("BAD in src/a.ts");
});

test("core.worktree or core.bare the agent set: cpilot's git still looks at the project's files", () => {
  const p = committed({ "src/b.ts": "export const b = 1;\n" });
  turnStarts(p);
  const elsewhere = tempDir("cpilot-elsewhere-");
  git(p, "config", "core.worktree", elsewhere);
  writeFileSync(p.path("src/a.ts"), "export const a = BAD;\n");
  expect(afterShell(p)).toContain("BAD in src/a.ts");
  git(p, "--work-tree", p.dir, "config", "--unset", "core.worktree");
  git(p, "config", "core.bare", "true");
  writeFileSync(p.path("src/b.ts"), "export const b = BAD;\n");
  expect(afterShell(p)).toContain("BAD in src/b.ts");
  expect(stop(p)).toContain("failed on src/a.ts and src/b.ts");
});

test("a submodule inside a submodule: its files changed through the shell are named", () => {
  const deep = tempDir("cpilot-deep-", { git: true });
  writeFileSync(join(deep, "d.ts"), "export const d = 1;\n");
  commitAll(deep);
  const lib = tempDir("cpilot-submodule-", { git: true });
  writeFileSync(join(lib, "x.ts"), "export const x = 1;\n");
  spawnSync("git", ["-c", "protocol.file.allow=always", "submodule", "add", "-q", deep, "deep"], {
    cwd: lib,
  });
  commitAll(lib);
  const p = committed();
  git(p, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib");
  git(p, "-c", "protocol.file.allow=always", "submodule", "update", "--init", "--recursive", "-q");
  git(p, "commit", "-qm", "with lib");
  turnStarts(p);
  writeFileSync(p.path("lib/deep/d.ts"), "export const d = BAD;\n");
  expect(afterShell(p)).toContain("files your command changed: lib/deep/d.ts");
  // committed inside the inner submodule: only its commit says what changed
  writeFileSync(p.path("lib/deep/e.ts"), "export const e = BAD;\n");
  commitAll(p.path("lib/deep"));
  expect(afterShell(p)).toContain("lib/deep/e.ts");
});

function commitAll(dir: string): void {
  spawnSync("git", ["add", "-A"], { cwd: dir });
  spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c"], {
    cwd: dir,
  });
}

test("in a submodule, a same-size write within the second git recorded the file is seen", () => {
  const lib = tempDir("cpilot-submodule-", { git: true });
  writeFileSync(join(lib, "x.ts"), "export const x = 111;\n");
  spawnSync("git", ["add", "-A"], { cwd: lib });
  spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "lib"], {
    cwd: lib,
  });
  const p = committed();
  git(p, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib");
  git(p, "commit", "-qm", "with lib");
  turnStarts(p);
  const file = p.path("lib/x.ts");
  const inLib = { cwd: p.path("lib") };
  for (;;) {
    spawnSync("touch", ["-d", "2020-01-01", "x.ts"], inLib);
    spawnSync("git", ["update-index", "--refresh"], inLib);
    const recorded = Math.floor(statSync(file).ctimeMs / 1000);
    writeFileSync(file, "export const x = BAD;\n"); // same size as before
    spawnSync("touch", ["-d", "2020-01-01", "x.ts"], inLib);
    if (Math.floor(statSync(file).ctimeMs / 1000) === recorded) break;
    spawnSync("git", ["checkout", "--", "x.ts"], inLib);
  }
  expect(afterShell(p)).toContain("files your command changed: lib/x.ts");
});
