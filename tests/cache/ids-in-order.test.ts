/**
 * A `check --all` snapshot finds its files' content ids by walking git's index in order; every
 * other caller looks them up in a map of every file. Both must give the same ids, and so the
 * same run keys, whatever order or files a run is given.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { MANY_FILES, ProjectSnapshot, readProjectAhead } from "../../src/cache/content.ts";
import { runKey } from "../../src/cache/run-key.ts";
import { committedRepo } from "../helpers/tmp.ts";

function project(): string {
  const files: Record<string, string> = { "pkg/package.json": "{}\n", "é.ts": "accent\n" };
  for (let i = 0; i < MANY_FILES * 2; i++)
    files[`src/d${i % 7}/f${i}.ts`] = `export const x = ${i};\n`;
  const root = committedRepo("cpilot-ids-in-order-", files);
  writeFileSync(join(root, "src/d1/f1.ts"), "changed\n"); // differs from the index
  writeFileSync(join(root, "new.ts"), "untracked\n");
  writeFileSync(join(root, "pkg/a.ts"), "in a package\n");
  execFileSync("git", ["add", "pkg/a.ts"], { cwd: root });
  return root;
}

test("ids found by walking the index equal those looked up by name, in any order, for any path", async () => {
  const root = project();
  const ahead = await readProjectAhead(root);
  if (ahead === null) throw new Error("no snapshot");
  const every = new ProjectSnapshot(root).content(Number.POSITIVE_INFINITY);
  if (every === null) throw new Error("no content");
  const listed = ahead.trackedFiles() ?? [];
  expect(listed.length).toBeGreaterThan(MANY_FILES);
  const orders = [
    listed,
    [...listed].reverse(),
    [...listed, "new.ts", "not-there.ts", listed[0] as string],
    ["zzz-not-there.ts", ...listed],
  ];
  for (const paths of orders) {
    const fresh = await readProjectAhead(root);
    expect(fresh?.idsOf(paths)).toEqual(paths.map((p) => every.get(p)));
  }
  const ids = ahead.idsOf(["src/d1/f1.ts", "new.ts", "é.ts"]);
  expect(ids?.[0]).toBe(every.get("src/d1/f1.ts"));
  expect(ids?.[1]).toBe(every.get("new.ts"));
  expect(typeof ids?.[2]).toBe("string");
});

test("a run's key is the same from a snapshot read ahead as from one that lists the project itself", async () => {
  const root = project();
  const ahead = await readProjectAhead(root);
  const listed = ahead?.trackedFiles() ?? [];
  const own = (p: string) => p.endsWith(".ts");
  for (const whole of [false, true]) {
    for (const files of [
      listed,
      [...listed].reverse(),
      listed.filter((p) => p.startsWith("pkg/")),
    ]) {
      const read = await readProjectAhead(root);
      const a = runKey(root, "def", files, whole, { own }, read ?? undefined);
      const b = runKey(root, "def", files, whole, { own }, new ProjectSnapshot(root));
      expect(a?.key).toBe(b?.key as string);
      expect(a?.read).toEqual(b?.read as Record<string, string>);
    }
  }
  // the content of a changed file is in the key
  const before = runKey(root, "def", listed, false, { own })?.key;
  writeFileSync(join(root, "src/d2/f2.ts"), "changed too\n");
  expect(runKey(root, "def", listed, false, { own })?.key).not.toBe(before as string);
});
