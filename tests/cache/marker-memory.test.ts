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
