/**
 * The runs of one batch share a look at the project once they end: only runs that asked
 * before its `git status` started, so none is judged by a look older than its own end.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ProjectSnapshot } from "../../src/cache/content.ts";
import { AfterLooks } from "../../src/engine/after-looks.ts";
import { committedRepo, tempDir } from "../helpers/tmp.ts";

test("runs that ask together share one look; one that asks after it started gets a later one", async () => {
  const root = committedRepo("cpilot-after-looks-", { "a.ts": "one\n" });
  const looks = new AfterLooks(root);
  const first = looks.look();
  // asked in the same turn, before the status starts: the same look
  expect(looks.look()).toBe(first);
  // a change made after asking, before the status starts, is in it
  writeFileSync(join(root, "a.ts"), "two\n");
  const seen = await first;
  expect(seen.key()).toBe(new ProjectSnapshot(root).key());
  expect(seen.changed()?.has("a.ts")).toBe(true);

  writeFileSync(join(root, "b.ts"), "new\n");
  const later = looks.look();
  expect(later).not.toBe(first);
  const next = await later;
  expect(next.key()).not.toBe(seen.key());
  expect(next.changed()?.has("b.ts")).toBe(true);
  expect(seen.changed()?.has("b.ts")).toBe(false);
});

test("outside git the look asks again as it needs, and says nothing it cannot", async () => {
  const looks = new AfterLooks(tempDir("cpilot-after-looks-nogit-"));
  const seen = await looks.look();
  expect(seen.key()).toBeNull();
});
