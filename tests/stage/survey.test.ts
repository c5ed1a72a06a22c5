import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { indexEntries, type Survey, startSurvey } from "../../src/stage/survey.ts";
import { committedRepo, writeFiles } from "../helpers/tmp.ts";

const git = (root: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** Every kind of record a survey meets: staged, partly staged, unstaged, deleted, untracked… */
function messy(): string {
  const root = committedRepo("cpilot-survey-", {
    ".gitignore": "ignored.log\n.cpilot/\n",
    "a.txt": "a\n",
    "b.txt": "b\n",
    "c.txt": "c\n",
    "d/e.txt": "e\n",
  });
  writeFiles(root, { "a.txt": "a staged\n", "new staged.txt": "n\n" });
  git(root, "add", "a.txt", "new staged.txt");
  writeFiles(root, {
    "a.txt": "a unstaged on top\n",
    "b.txt": "b unstaged\n",
    "untracked.txt": "u\n",
    "deep/er/u2.txt": "u2\n",
    "tab\tname.txt": "t\n",
    "ignored.log": "i\n",
    ".cpilot/runs/x.log": "mine\n",
    "intent.txt": "i-t-a\n",
  });
  git(root, "add", "-N", "intent.txt");
  rmSync(join(root, "c.txt"));
  // a nested repository: listed as its folder, never set aside
  mkdirSync(join(root, "nested"));
  git(join(root, "nested"), "init", "-q");
  writeFiles(root, { "nested/inner.txt": "x\n" });
  return root;
}

const sorted = (s: Survey) => ({
  staged: [...s.staged].sort((x, y) => x.path.localeCompare(y.path)),
  unstaged: [...s.unstaged].sort((x, y) => x.path.localeCompare(y.path)),
  untracked: [...s.untracked].sort(),
});

test("split in two git processes (a large repository), the survey finds exactly what one `git status` finds", async () => {
  const root = messy();
  const options = { stateDir: ".cpilot" };
  for (const untracked of [true, false]) {
    const one = await startSurvey(root, { ...options, untracked, split: false }).result({
      untracked,
    });
    const two = await startSurvey(root, { ...options, untracked, split: true }).result({
      untracked,
    });
    expect(sorted(two)).toEqual(sorted(one));
  }
  const all = sorted(
    await startSurvey(root, { ...options, untracked: true, split: true }).result({
      untracked: true,
    }),
  );
  expect(all.untracked).toEqual(["deep/er/u2.txt", "intent.txt", "tab\tname.txt", "untracked.txt"]);
  expect(all.unstaged).toEqual([
    { path: "a.txt", deleted: false },
    { path: "b.txt", deleted: false },
    { path: "c.txt", deleted: true },
  ]);
  expect(all.staged.map((c) => c.path)).toEqual(["a.txt", "new staged.txt"]);
});

test("asked for untracked files, then told hideUntracked is false: only intent-to-add files stay", async () => {
  const root = messy();
  for (const split of [false, true]) {
    const s = await startSurvey(root, { stateDir: ".cpilot", untracked: true, split }).result({
      untracked: false,
    });
    expect(s.untracked).toEqual(["intent.txt"]);
  }
});

test("the index's entry count is read from its header, and 0 when there is none", () => {
  const root = messy();
  const gitDir = join(root, ".git");
  expect(indexEntries(root, gitDir, {})).toBe(
    git(root, "ls-files", "-z").split("\0").filter(Boolean).length,
  );
  expect(indexEntries(root, gitDir, { GIT_INDEX_FILE: join(root, "no-such-index") })).toBe(0);
  expect(indexEntries(root, join(root, "nowhere"), {})).toBe(0);
});
