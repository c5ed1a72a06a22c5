/**
 * A put-back killed at each of its steps: whatever it had moved aside, linked back or not
 * yet dropped is found by the next call (recovery), and nothing anyone wrote is lost or kept
 * twice.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import {
  existsSync,
  linkSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { setAside } from "../../src/stage/hide.ts";
import { stageDir } from "../../src/stage/journal.ts";
import { asideName } from "../../src/stage/put-in-place.ts";
import { recoverStage } from "../../src/stage/recover.ts";
import { PUTTING_BACK } from "../../src/stage/restore.ts";
import { surveyTree } from "../../src/stage/survey.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import { treeState } from "../helpers/tree-state.ts";

const git = (root: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd: root, encoding: "utf8" });

const DEAD = 2 ** 22 + 7;

/** a.txt partially staged, b.txt changed and not staged: both set aside by a check now dead. */
async function killedCheck(committed: Record<string, string> = {}): Promise<{
  root: string;
  before: Record<string, string>;
  dir: string;
}> {
  const root = tempDir("cpilot-put-back-kill-", { git: true });
  writeFiles(root, { "a.txt": "a\n", "b.txt": "b\n", ...committed });
  git(root, "add", "-A");
  git(root, "commit", "-qm", "init");
  writeFiles(root, { "a.txt": "a staged\n" });
  git(root, "add", "a.txt");
  writeFiles(root, { "a.txt": "a unstaged\n", "b.txt": "b unstaged\n" });
  const before = treeState(root);
  const dir = stageDir(join(root, ".git"));
  const survey = await surveyTree(root, { untracked: true, stateDir: ".cpilot" });
  expect(setAside(root, dir, survey)).not.toBeNull();
  const journalFile = join(dir, "journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8"));
  writeFileSync(journalFile, JSON.stringify({ ...journal, pid: DEAD, started: 1 }));
  return { root, before, dir };
}

const keptFiles = (root: string): string[] => {
  const kept = join(root, ".git", "cpilot", "kept");
  if (!existsSync(kept)) return [];
  return readdirSync(kept, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"));
};

test("killed after moving what was in place aside, twice, with a write between: one kept, the staged version dropped", async () => {
  const { root, before, dir } = await killedCheck();
  // a put-back started: the staged version moved aside, then a later write in its place too
  writeFileSync(join(dir, PUTTING_BACK), "");
  renameSync(join(root, "b.txt"), asideName(join(root, "b.txt"), DEAD, 0));
  writeFileSync(asideName(join(root, "b.txt"), DEAD, 1), "written meanwhile\n");
  const result = await recoverStage(dir);
  expect(result.status).toBe("restored");
  expect(treeState(root)).toEqual(before);
  expect(keptFiles(root)).toEqual(["written meanwhile\n"]);
  expect(existsSync(dir)).toBe(false);
});

test("killed between linking a file back and dropping its set-aside name: not kept as a stranger's write", async () => {
  const { root, before, dir } = await killedCheck();
  // a put-back started: the staged version in place went (git holds it), the work linked
  // back, its old name left
  writeFileSync(join(dir, PUTTING_BACK), "");
  renameSync(join(root, "b.txt"), asideName(join(root, "b.txt"), DEAD, 0));
  unlinkSync(asideName(join(root, "b.txt"), DEAD, 0));
  linkSync(join(dir, "tracked", "b.txt"), join(root, "b.txt"));
  const result = await recoverStage(dir);
  expect(result.status).toBe("restored");
  expect(treeState(root)).toEqual(before);
  expect(keptFiles(root)).toEqual([]);
});

test("a set-aside file's place holding a callback's rewrite after a kill: kept, the work back", async () => {
  const { root, before, dir } = await killedCheck();
  writeFileSync(join(root, "b.txt"), "a callback's rewrite\n");
  const result = await recoverStage(dir);
  expect(result.status).toBe("restored");
  expect(treeState(root)).toEqual(before);
  expect(keptFiles(root)).toEqual(["a callback's rewrite\n"]);
});

test("the staged version in place as git checks it out (line endings converted) is git's: dropped, not kept", async () => {
  const { root, before, dir } = await killedCheck({ ".gitattributes": "*.txt text eol=crlf\n" });
  expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("b\r\n");
  const result = await recoverStage(dir);
  expect(result.status).toBe("restored");
  expect(treeState(root)).toEqual(before);
  expect(keptFiles(root)).toEqual([]);
});
