/**
 * The put-back's two steps on the file system (src/stage/put-in-place.ts): what is in a
 * place is renamed aside whole, and the work goes back only where nothing is.
 */
import { expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { asideName, asidesOf, moveAside, placeNew } from "../../src/stage/put-in-place.ts";
import { tempDir } from "../helpers/tmp.ts";

test("the work goes back only where nothing is: a file written there first is neither replaced nor lost", () => {
  const dir = tempDir("cpilot-put-in-place-");
  writeFileSync(join(dir, "work"), "set aside\n");
  writeFileSync(join(dir, "a.txt"), "written first\n");
  expect(placeNew(join(dir, "work"), join(dir, "a.txt"))).toBe(false);
  expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("written first\n");
  expect(readFileSync(join(dir, "work"), "utf8")).toBe("set aside\n");
  // a link there (even one to nowhere) is not followed or replaced either
  symlinkSync(join(dir, "nowhere"), join(dir, "b.txt"));
  expect(placeNew(join(dir, "work"), join(dir, "b.txt"))).toBe(false);
  expect(existsSync(join(dir, "nowhere"))).toBe(false);
  expect(placeNew(join(dir, "work"), join(dir, "c.txt"))).toBe(true);
  expect(readFileSync(join(dir, "c.txt"), "utf8")).toBe("set aside\n");
  expect(existsSync(join(dir, "work"))).toBe(false);
});

test("a set-aside link goes back as the same link", () => {
  const dir = tempDir("cpilot-put-in-place-");
  symlinkSync("../somewhere", join(dir, "work"));
  expect(placeNew(join(dir, "work"), join(dir, "link"))).toBe(true);
  expect(readlinkSync(join(dir, "link"))).toBe("../somewhere");
  expect(existsSync(join(dir, "work"))).toBe(false);
});

test("whatever is in a place moves aside whole, under names that count up with no gap", () => {
  const dir = tempDir("cpilot-put-in-place-");
  const place = join(dir, "a.txt");
  mkdirSync(place);
  writeFileSync(join(place, "inner"), "in a folder\n");
  const first = moveAside(place, 42);
  expect(first).toBe(asideName(place, 42, 0));
  expect(readFileSync(join(first as string, "inner"), "utf8")).toBe("in a folder\n");
  writeFileSync(place, "written after\n");
  expect(moveAside(place, 42)).toBe(asideName(place, 42, 1));
  expect(lstatSync(place, { throwIfNoEntry: false })).toBeUndefined();
  expect(moveAside(place, 42)).toBeNull();
  // the last first, so that dropping them in that order leaves no gap
  expect(asidesOf(place, 42)).toEqual([asideName(place, 42, 1), asideName(place, 42, 0)]);
  // another check's asides are not this one's
  expect(asidesOf(place, 43)).toEqual([]);
});

// a git folder on another file system than its work tree: no hard link reaches across
test.skipIf(!existsSync("/dev/shm"))(
  "from another file system, the work goes back whole and still only where nothing is",
  () => {
    const there = mkdtempSync("/dev/shm/cpilot-put-in-place-");
    try {
      const dir = tempDir("cpilot-put-in-place-");
      writeFileSync(join(there, "work"), "set aside\n");
      chmodSync(join(there, "work"), 0o755);
      writeFileSync(join(dir, "a.txt"), "written first\n");
      expect(placeNew(join(there, "work"), join(dir, "a.txt"))).toBe(false);
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("written first\n");
      expect(placeNew(join(there, "work"), join(dir, "b.txt"))).toBe(true);
      expect(readFileSync(join(dir, "b.txt"), "utf8")).toBe("set aside\n");
      expect(lstatSync(join(dir, "b.txt")).mode & 0o777).toBe(0o755);
      expect(existsSync(join(there, "work"))).toBe(false);
      expect(readdirSync(dir).sort()).toEqual(["a.txt", "b.txt"]);
    } finally {
      rmSync(there, { recursive: true, force: true });
    }
  },
);
