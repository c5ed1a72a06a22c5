import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setAside } from "../../src/stage/hide.ts";
import { stageDir } from "../../src/stage/journal.ts";
import { recoverStage } from "../../src/stage/recover.ts";
import { surveyTree } from "../../src/stage/survey.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import { treeState } from "../helpers/tree-state.ts";

const git = (root: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd: root, encoding: "utf8" });

/** A repo with a partially staged file, an unstaged deletion and an untracked file. */
function messy(): { root: string; before: Record<string, string>; dir: string } {
  const root = tempDir("cpilot-recover-", { git: true });
  writeFiles(root, { "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n" });
  git(root, "add", "-A");
  git(root, "commit", "-qm", "init");
  writeFiles(root, { "a.txt": "a staged\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "a unstaged\n", "b.txt": "b unstaged\n", "new.txt": "new\n" });
  rmSync(join(root, "c.txt"));
  return { root, before: treeState(root), dir: stageDir(join(root, ".git")) };
}

async function hide(root: string, dir: string) {
  const survey = await surveyTree(root, { untracked: true, stateDir: ".cpilot" });
  const journal = setAside(root, dir, survey);
  expect(journal).not.toBeNull();
}

test("a check that died (journal of a dead pid) is put back whole", async () => {
  const { root, before, dir } = messy();
  await hide(root, dir);
  expect(treeState(root)).not.toEqual(before);
  // setAside wrote this process as owner: make it a pid that is gone
  const journalFile = join(dir, "journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8"));
  writeFileSync(journalFile, JSON.stringify({ ...journal, pid: 2 ** 22 + 7, started: 1 }));
  expect((await recoverStage(dir)).status).toBe("restored");
  expect(treeState(root)).toEqual(before);
  expect(existsSync(dir)).toBe(false);
});

test("a crash half way through putting back: the files already back are not touched again", async () => {
  const { root, before, dir } = messy();
  await hide(root, dir);
  // as if the put-back had moved a.txt back and then died
  renameSync(join(dir, "tracked", "a.txt"), join(root, "a.txt"));
  const journalFile = join(dir, "journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8"));
  writeFileSync(journalFile, JSON.stringify({ ...journal, pid: 2 ** 22 + 7, started: 1 }));
  const result = await recoverStage(dir);
  expect(result.status).toBe("restored");
  expect(treeState(root)).toEqual(before);
  // nothing was mistaken for a callback's rewrite
  expect(existsSync(join(root, ".git", "cpilot", "kept"))).toBe(false);
});

test("a callback's rewrite of a set-aside file is kept, never written over silently", async () => {
  const { root, before, dir } = messy();
  await hide(root, dir);
  writeFiles(root, { "b.txt": "a callback wrote this\n", "new.txt": "a generator made this\n" });
  const journalFile = join(dir, "journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8"));
  writeFileSync(journalFile, JSON.stringify({ ...journal, pid: 2 ** 22 + 7, started: 1 }));
  const result = await recoverStage(dir);
  expect(result.status).toBe("restored");
  expect(treeState(root)).toEqual(before);
  const keptRoot = join(root, ".git", "cpilot", "kept");
  const [stamp] = readdirSync(keptRoot);
  expect(readdirSync(join(keptRoot, stamp as string)).sort()).toEqual(["b.txt", "new.txt"]);
});

test("a check that is still running is left alone", async () => {
  const { root, dir } = messy();
  await hide(root, dir);
  const journalFile = join(dir, "journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8"));
  // this test process stands for the running check; the journal names its parent, alive
  const { processStartTime } = await import("../../src/platform/process-start.ts");
  writeFileSync(
    journalFile,
    JSON.stringify({ ...journal, pid: process.ppid, started: processStartTime(process.ppid) }),
  );
  expect((await recoverStage(dir)).status).toBe("busy");
  expect(existsSync(join(dir, "journal.json"))).toBe(true);
  writeFileSync(journalFile, JSON.stringify(journal));
  expect((await recoverStage(dir)).status).toBe("restored"); // its own journal: this process may
});

test("a journal from before git folders were named by identity: put back when its path is this repository's", async () => {
  const { root, before, dir } = messy();
  await hide(root, dir);
  const journalFile = join(dir, "journal.json");
  const { gitDirId: _id, ...journal } = JSON.parse(readFileSync(journalFile, "utf8"));
  writeFileSync(journalFile, JSON.stringify({ ...journal, pid: 2 ** 22 + 7, started: 1 }));
  expect((await recoverStage(dir, root)).status).toBe("restored");
  expect(treeState(root)).toEqual(before);
});
