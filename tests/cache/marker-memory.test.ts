import { expect, test } from "bun:test";
import { join } from "node:path";
import { markerMemory } from "../../src/cache/marker-memory.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

test("a folder changed in the last seconds is looked into again: a change in the same tick of its clock would keep its times", () => {
  const root = tempDir("cpilot-marker-memory-", { git: true });
  writeFiles(root, { "pkg/mod.py": "x = 1\n" });
  const first = markerMemory(root);
  expect(first.unchanged("pkg", join(root, "pkg"))).toBe(false);
  first.holdsNone("pkg");
  first.save();
  expect(markerMemory(root).unchanged("pkg", join(root, "pkg"))).toBe(false);
});

test("outside git nothing is kept, and nothing throws", () => {
  const root = tempDir("cpilot-marker-memory-");
  writeFiles(root, { "pkg/mod.py": "x = 1\n" });
  const memory = markerMemory(root);
  expect(memory.unchanged("pkg", join(root, "pkg"))).toBe(false);
  expect(memory.unchanged("gone", join(root, "gone"))).toBe(false);
  memory.holdsNone("pkg");
  memory.save();
  expect(markerMemory(root).unchanged("pkg", join(root, "pkg"))).toBe(false);
});

test("a settled folder that held no marker is not looked into again, in any order; one given a marker is", async () => {
  const root = tempDir("cpilot-marker-memory-", { git: true });
  const folders = ["a", "a/b", "c", "d/e"];
  writeFiles(root, Object.fromEntries(folders.map((f) => [`${f}/x.py`, "x = 1\n"])));
  await Bun.sleep(3100); // past the file system clock's tick (see SETTLED_MS)
  const first = markerMemory(root);
  for (const f of folders) {
    expect(first.unchanged(f, join(root, f))).toBe(false);
    first.holdsNone(f);
  }
  first.save();
  const asked = (order: string[]) => {
    const memory = markerMemory(root);
    return Object.fromEntries(order.map((f) => [f, memory.unchanged(f, join(root, f))]));
  };
  const all = (value: boolean) => Object.fromEntries(folders.map((f) => [f, value]));
  expect(asked(folders)).toEqual(all(true));
  expect(asked([...folders].reverse())).toEqual(all(true));
  expect(asked(["new", ...folders.slice(2), ...folders.slice(0, 2)])).toEqual({
    new: false,
    ...all(true),
  });
  writeFiles(root, { "c/pyvenv.cfg": "home = /usr/bin\n" });
  const memory = markerMemory(root);
  expect(folders.map((f) => memory.unchanged(f, join(root, f)))).toEqual([true, true, false, true]);
  memory.save(); // the changed folder is dropped from what is kept
  expect(asked(folders)).toEqual({ ...all(true), c: false });
});
