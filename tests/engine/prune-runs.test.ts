import { expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pruneRuns } from "../../src/engine/runs-store.ts";
import { tempDir } from "../helpers/tmp.ts";

function runsFolder(count: number): { root: string; runs: string } {
  const root = tempDir();
  const runs = join(root, ".cpilot", "runs");
  mkdirSync(runs, { recursive: true });
  for (let i = 0; i < count; i++) {
    const id = `${(1_700_000_000_000 + i).toString(36)}-a1b2c3`;
    writeFileSync(join(runs, `${id}.log`), "");
    writeFileSync(join(runs, `${id}.json`), "{}");
  }
  return { root, runs };
}

const logs = (runs: string) =>
  readdirSync(runs)
    .filter((n) => n.endsWith(".log"))
    .sort();

test("old runs go a few at a time, the oldest first: no burst of deletions", () => {
  const { root, runs } = runsFolder(103);
  const before = logs(runs);
  pruneRuns(root, 100, 2); // 3 due: fewer than a few, they wait
  expect(logs(runs)).toEqual(before);
  const { root: root2, runs: runs2 } = runsFolder(105);
  const before2 = logs(runs2);
  pruneRuns(root2, 100, 2); // 5 due: 4 go (a step), the oldest
  expect(logs(runs2)).toEqual(before2.slice(4));
  pruneRuns(root2, 100, 2); // 1 left due: it waits for more
  expect(logs(runs2)).toEqual(before2.slice(4));
  pruneRuns(root2, 100); // without a budget, all that is due goes
  expect(logs(runs2)).toEqual(before2.slice(5));
});

test("past a tenth over the limit (a batch of many runs), everything past it goes at once", () => {
  const { root, runs } = runsFolder(125);
  pruneRuns(root, 100, 2);
  expect(logs(runs)).toHaveLength(100);
});
