/**
 * The record of the project's files and what changed since, in real git repositories: the
 * person's changes before the turn stay theirs, an edit tool's files are not counted again,
 * a protected file changed is told until it is put back.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { resolveConfig } from "../../src/config/resolve.ts";
import {
  noteToolEdits,
  protectedStillChanged,
  recordTurnStart,
  shellEditsSince,
} from "../../src/hook/shell-edits.ts";
import { pruneRecords, recordDir } from "../../src/hook/turn-record-store.ts";
import { tempDir, waitFor, writeFiles } from "../helpers/tmp.ts";

function project(): { root: string; config: ReturnType<typeof resolveConfig> } {
  const root = tempDir("cpilot-shell-edits-", { git: true });
  writeFiles(root, { "a.ts": "a\n", "b.ts": "b\n", "c.ts": "c\n" });
  spawnSync("git", ["add", "-A"], { cwd: root });
  spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "i"], {
    cwd: root,
  });
  return { root, config: resolveConfig({ callbacks: [] }, root) };
}

test("files changed since the turn started are the agent's; the person's earlier changes are not", () => {
  const { root, config } = project();
  writeFileSync(join(root, "b.ts"), "the person's\n");
  writeFileSync(join(root, "mine.ts"), "the person's new file\n");
  recordTurnStart(config, "s1");
  expect(shellEditsSince(config, "s1").files).toEqual([]);
  writeFileSync(join(root, "a.ts"), "by the shell\n");
  writeFileSync(join(root, "new.ts"), "new\n");
  rmSync(join(root, "c.ts"));
  writeFileSync(join(root, "b.ts"), "the agent changed it again\n");
  const found = shellEditsSince(config, "s1");
  expect(found.files).toEqual([
    { path: "a.ts", kind: "modified" },
    { path: "b.ts", kind: "modified" },
    { path: "c.ts", kind: "deleted" },
    { path: "new.ts", kind: "created" },
  ]);
  expect(found.protectedNotes).toEqual([]);
  // Told once: the record moved on.
  expect(shellEditsSince(config, "s1").files).toEqual([]);
  // A file put back to what git holds is a change too.
  spawnSync("git", ["checkout", "--", "a.ts"], { cwd: root });
  expect(shellEditsSince(config, "s1").files).toEqual([{ path: "a.ts", kind: "modified" }]);
});

test("an edit tool's file, already checked, is not counted again by the next shell call", () => {
  const { root, config } = project();
  recordTurnStart(config, "s2");
  writeFileSync(join(root, "a.ts"), "by the Edit tool\n");
  noteToolEdits(config, "s2", ["a.ts"]);
  expect(shellEditsSince(config, "s2").files).toEqual([]);
});

test("a protected file changed through the shell is told, and at the stop until put back", () => {
  const { root, config } = project();
  writeFileSync(join(root, ".gitignore"), ".env\n");
  writeFileSync(join(root, ".env"), "TOKEN=person\n");
  recordTurnStart(config, "s3");
  writeFileSync(join(root, ".env"), "TOKEN=agent\n");
  writeFileSync(join(root, ".git/hooks/pre-commit"), "#!/bin/sh\nexit 0\n");
  const found = shellEditsSince(config, "s3");
  expect(found.files).toEqual([]);
  expect(found.protectedNotes).toHaveLength(2);
  expect(found.protectedNotes[0]).toContain("a protected file was changed through the shell: .env");
  expect(found.protectedNotes[0]).toContain("put back what it held before");
  expect(found.protectedNotes[0]).not.toContain("TOKEN=");
  expect(found.protectedNotes[1]).toContain(".git/hooks/pre-commit");
  expect(found.protectedNotes[1]).toContain("must be reverted: delete it");
  expect(found.protectedNotes[1]).toContain("It now holds:\n```\n#!/bin/sh\nexit 0");
  expect(protectedStillChanged(config, "s3")).toHaveLength(2);
  writeFileSync(join(root, ".env"), "TOKEN=person\n");
  rmSync(join(root, ".git/hooks/pre-commit"));
  expect(protectedStillChanged(config, "s3")).toEqual([]);
});

test("edit tools' hooks noting their files at once lose none of them to each other", async () => {
  const { root, config } = project();
  recordTurnStart(config, "s9");
  const names = Array.from({ length: 12 }, (_, i) => `f${i}.ts`);
  for (const name of names) writeFileSync(join(root, name), `${name}\n`);
  // Each hook is a process of its own, as an agent's hooks are: all note at the same time.
  const module = join(import.meta.dir, "../../src/hook/shell-edits.ts");
  const resolve = join(import.meta.dir, "../../src/config/resolve.ts");
  // each process gives the gate the agents' hook files, as main.ts does
  const registry = join(import.meta.dir, "../../src/agents/registry.ts");
  const hookFiles = join(import.meta.dir, "../../src/config/hook-files.ts");
  const go = join(tempDir("cpilot-start-line-"), "go");
  const children = names.map((name) =>
    Bun.spawn(
      [
        process.execPath,
        "-e",
        `const { AGENT_HOOK_FILES } = await import(${JSON.stringify(registry)});
(await import(${JSON.stringify(hookFiles)})).protectHookFiles(AGENT_HOOK_FILES);
const { noteToolEdits } = await import(${JSON.stringify(module)});
const { resolveConfig } = await import(${JSON.stringify(resolve)});
const { existsSync, writeFileSync } = await import("node:fs");
const config = resolveConfig({ callbacks: [] }, ${JSON.stringify(root)});
writeFileSync(${JSON.stringify(`${go}.${name}`)}, "");
while (!existsSync(${JSON.stringify(go)})) await Bun.sleep(5);
noteToolEdits(config, "s9", [${JSON.stringify(name)}]);`,
      ],
      // The records' private folder is the test run's: Bun.spawn does not pass on what
      // tests/setup.ts added to process.env unless told.
      { stdout: "inherit", stderr: "inherit", env: { ...process.env } },
    ),
  );
  // every process has loaded and waits on the start line, however long a busy machine took
  const ready = () => names.every((name) => existsSync(`${go}.${name}`));
  expect(await waitFor(ready, 30_000)).toBe(true);
  writeFileSync(go, "");
  expect(await Promise.all(children.map((c) => c.exited))).toEqual(names.map(() => 0));
  expect(shellEditsSince(config, "s9").files).toEqual([]);
});

function recordFile(root: string, session: string): string {
  return join(recordDir(root, session) as string, "tree-snapshot.json");
}

test("an edit tool's note appends only its own entries: the record is not rewritten", () => {
  const { root, config } = project();
  // Many uncommitted files make the record large, as in a project not yet committed.
  for (let i = 0; i < 300; i++) writeFileSync(join(root, `u${i}.ts`), `${i}\n`);
  recordTurnStart(config, "s10");
  const path = recordFile(root, "s10");
  const was = readFileSync(path, "utf8");
  const ino = statSync(path).ino;
  writeFileSync(join(root, "a.ts"), "by the Edit tool\n");
  noteToolEdits(config, "s10", ["a.ts"]);
  const now = readFileSync(path, "utf8");
  expect(statSync(path).ino).toBe(ino);
  expect(now.startsWith(was)).toBe(true);
  expect(now.length - was.length).toBeLessThan(200);
  expect(shellEditsSince(config, "s10").files).toEqual([]);
});

test("a note cut short by a killed writer is skipped, not the record: that file is checked again, the others are not", () => {
  const { root, config } = project();
  recordTurnStart(config, "s11");
  writeFileSync(join(root, "a.ts"), "by the Edit tool\n");
  writeFileSync(join(root, "b.ts"), "by the Edit tool too\n");
  // What a writer killed in the middle of its write leaves: a line without its end.
  appendFileSync(
    recordFile(root, "s11"),
    '\n0123456789012345678901234567890123456789 {"p":"a.ts","s":"s:1',
  );
  noteToolEdits(config, "s11", ["b.ts"]);
  const found = shellEditsSince(config, "s11");
  expect(found.files).toEqual([{ path: "a.ts", kind: "modified" }]);
  expect(found.protectedNotes).toEqual([]);
});

test("a note without a record of the turn is dropped: there is no turn to note it in", () => {
  const { root, config } = project();
  noteToolEdits(config, "s12", ["a.ts"]);
  expect(existsSync(recordFile(root, "s12"))).toBe(false);
});

test("a session's records untouched for a week are removed, a recent one's kept", () => {
  const { root, config } = project();
  recordTurnStart(config, "old");
  recordTurnStart(config, "new");
  const old = recordDir(root, "old") as string;
  const week = 8 * 24 * 3600;
  utimesSync(old, Date.now() / 1000 - week, Date.now() / 1000 - week);
  expect(pruneRecords(root)).toBe(1);
  expect(existsSync(old)).toBe(false);
  expect(existsSync(join(recordDir(root, "new") as string, "tree-snapshot.json"))).toBe(true);
});
