/**
 * A shell that reaches for what decides whose a change is: the turn's record, the pinned
 * repository, the `.git` entry. `cpilot hook codex` payloads around commands run in a real
 * git repository by the test itself, as the agent's shell would have run them.
 */
import { afterEach, expect, test } from "bun:test";
import {
  cpSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { type AgentProject, LINT } from "../agents/gemini/_agent-project.ts";
import { tempDir } from "../helpers/tmp.ts";
import {
  afterShell,
  committedCodexProject,
  git,
  privateRecords,
  stop,
  turnStarts,
} from "./_codex-shell-turn.ts";

let project: AgentProject | undefined;
afterEach(() => project?.remove());

function committed(files: Record<string, string> = {}): AgentProject {
  project = committedCodexProject(
    { callbacks: [LINT] },
    { "src/a.ts": "export const a = 1;\n", ...files },
  );
  return project;
}

/** What cpilot signs an unprotected file with: its stat data. */
function statSignature(path: string): string {
  const st = lstatSync(path, { bigint: true });
  return `s:${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}`;
}

/** The record line one as JSON, wherever it is kept and however it is sealed. */
function forgeInto(record: string, rel: string, signature: string): void {
  const text = readFileSync(record, "utf8");
  writeFileSync(
    record,
    text.replace('"files":{', `"files":{${JSON.stringify(rel)}:"${signature}",`),
  );
}

test("a record forged in the git folder (the agent's edit written in as the person's) is not what cpilot reads", () => {
  const p = committed();
  turnStarts(p);
  writeFileSync(p.path("src/a.ts"), "export const a = BAD;\n");
  // Where records were kept before: every record there is made to hold the file as it is now.
  const sessions = p.path(".git/cpilot/sessions");
  for (const session of existsSync(sessions) ? readdirSync(sessions) : []) {
    const record = join(sessions, session, "tree-snapshot.json");
    if (existsSync(record)) forgeInto(record, "src/a.ts", statSignature(p.path("src/a.ts")));
  }
  const told = afterShell(p, "sed -i … .git/cpilot/sessions/s1/tree-snapshot.json");
  expect(told).toContain("BAD in src/a.ts");
  expect(told).toContain("it names cpilot's records in the git folder");
  expect(stop(p)).toContain("BAD in src/a.ts");
});

test("a record in the private folder edited by other hands fails its seal: every changed file is checked, and said", () => {
  const p = committed({ "src/mine.ts": "export const mine = 1;\n" });
  // The person's change from before the turn: over-reported once the record cannot be trusted.
  writeFileSync(p.path("src/mine.ts"), "export const mine = BAD;\n");
  turnStarts(p);
  writeFileSync(p.path("src/a.ts"), "export const a = BAD;\n");
  // A command that does not name the record (its text built at run time, say).
  forgeInto(
    join(privateRecords(p), "tree-snapshot.json"),
    "src/a.ts",
    statSignature(p.path("src/a.ts")),
  );
  const told = afterShell(p, "sh ./x");
  expect(told).toContain("changed by other hands");
  expect(told).toContain("'lint' failed on src/a.ts and src/mine.ts");
  // From then on in the session, whatever the next command is.
  const later = afterShell(p, "ls");
  expect(later).toContain("every file that differs from git is checked as yours");
  expect(stop(p)).toContain("BAD in src/a.ts");
});

test("a command that names cpilot's records or where git looks: from then on every file that differs from git is the agent's", () => {
  const p = committed({ "src/mine.ts": "export const mine = 1;\n" });
  writeFileSync(p.path("src/mine.ts"), "export const mine = BAD;\n");
  turnStarts(p);
  const clean = afterShell(p, "ls");
  expect(clean).not.toContain("src/mine.ts"); // the person's, from before the turn
  const told = afterShell(p, "GIT_DIR=/tmp/elsewhere git status");
  expect(told).toContain("it sets where git looks");
  expect(told).toContain("BAD in src/mine.ts");
  expect(afterShell(p, "ls")).toContain("src/mine.ts");
  // A protected file written later is still told as one, and held until put back.
  writeFileSync(p.path(".env"), "TOKEN=agent\n");
  expect(afterShell(p, "ls")).toContain("a protected file was changed through the shell: .env");
  const held = stop(p);
  expect(held).toContain("BAD in src/mine.ts");
  expect(held).toContain(".env");
});

test("`.git` swapped for a `gitdir:` file naming a crafted repository: told as the repository changed under cpilot, the stop held until put back", () => {
  const p = committed();
  turnStarts(p);
  writeFileSync(p.path("src/a.ts"), "export const a = BAD;\n");
  // A crafted repository whose HEAD already holds the agent's edit, with no record of the turn.
  const crafted = tempDir("cpilot-crafted-");
  cpSync(p.path(".git"), join(crafted, ".git"), { recursive: true });
  rmSync(join(crafted, ".git", "cpilot"), { recursive: true, force: true });
  const inCrafted = { GIT_DIR: join(crafted, ".git"), GIT_WORK_TREE: p.dir };
  git(p, "--git-dir", inCrafted.GIT_DIR, "--work-tree", p.dir, "commit", "-qam", "crafted");
  const real = tempDir("cpilot-real-git-");
  renameSync(p.path(".git"), join(real, ".git"));
  writeFileSync(p.path(".git"), `gitdir: ${inCrafted.GIT_DIR}\n`);
  const told = afterShell(p, "sh ./x");
  expect(told).toContain("the repository cpilot was watching changed under it");
  expect(stop(p)).toContain("the repository cpilot was watching changed under it");
  rmSync(p.path(".git"));
  renameSync(join(real, ".git"), p.path(".git"));
  expect(afterShell(p, "ls")).toContain("BAD in src/a.ts");
  const last = stop(p);
  expect(last).not.toContain("changed under it");
  expect(last).toContain("BAD in src/a.ts");
});

test("core.worktree set through the shell is told, and the stop held until unset", () => {
  const p = committed();
  turnStarts(p);
  const elsewhere = tempDir("cpilot-elsewhere-");
  git(p, "config", "core.worktree", elsewhere);
  expect(afterShell(p, "sh ./x")).toContain(
    "the repository cpilot was watching changed under it: core.worktree was unset and is now",
  );
  expect(stop(p)).toContain("changed under it");
  git(p, "--work-tree", p.dir, "config", "--unset", "core.worktree");
  expect(stop(p)).not.toContain("changed under it");
});

test("the record of protected files changed, emptied by other hands, still holds the stop", () => {
  const p = committed();
  turnStarts(p);
  writeFileSync(p.path(".env"), "TOKEN=agent\n");
  expect(afterShell(p, "sh ./x")).toContain("a protected file was changed through the shell: .env");
  // What the agent's shell would write to forget it: an empty list, as cpilot writes one.
  writeFileSync(join(privateRecords(p), "shell-protected.json"), "[]");
  const held = stop(p);
  expect(held).toContain("record of the protected files you changed was changed by other hands");
});
