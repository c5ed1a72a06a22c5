/** A held folder: reached without following symlinks, and names in it stay in it. */
import { afterEach, describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { readFileIn, removeFileIn, writeFileIn } from "../../src/util/contained-write.ts";
import { LockTimeout, lockDirSync } from "../../src/util/dir-lock.ts";
import { MovedError, openVerifiedDir } from "../../src/util/verified-dir.ts";
import { tempDir } from "../helpers/tmp.ts";

const opened: { close(): void }[] = [];
afterEach(() => {
  for (const d of opened.splice(0)) d.close();
});

for (const byPath of [false, true]) {
  describe(byPath ? "walked by path (off Linux)" : "held by handle (Linux)", () => {
    test("creates the folders on the way and writes atomically in the folder", () => {
      const root = tempDir();
      const dir = openVerifiedDir(root, "a/b", { create: true, byPath });
      opened.push(dir);
      writeFileIn(dir, "x.txt", "one\n");
      writeFileIn(dir, "x.txt", "two\n");
      expect(readFileSync(join(root, "a/b/x.txt"), "utf8")).toBe("two\n");
      expect(readdirSync(join(root, "a/b"))).toEqual(["x.txt"]);
    });

    test("a symlink on the way is refused, even one that stays inside", () => {
      const root = tempDir();
      const outside = tempDir();
      symlinkSync(outside, join(root, "out"));
      mkdirSync(join(root, "real"));
      symlinkSync(join(root, "real"), join(root, "in"));
      expect(() => openVerifiedDir(root, "out", { byPath })).toThrow(MovedError);
      expect(() => openVerifiedDir(root, "out/sub", { create: true, byPath })).toThrow(MovedError);
      expect(() => openVerifiedDir(root, "in", { byPath })).toThrow(MovedError);
      expect(() => openVerifiedDir(root, "../x", { byPath })).toThrow(MovedError);
      expect(readdirSync(outside)).toEqual([]);
    });

    test("a file in the way is named as such, not taken for a swapped folder", () => {
      const root = tempDir();
      writeFileSync(join(root, "f"), "");
      let caught: unknown;
      try {
        openVerifiedDir(root, "f/sub", { create: true, byPath });
      } catch (err) {
        caught = err;
      }
      expect(caught).not.toBeInstanceOf(MovedError);
      expect((caught as Error).message).toBe(`${join(root, "f")} is a file, not a folder`);
    });

    test("a link put at the name is replaced by a write, not written through; not read", () => {
      const root = tempDir();
      const outside = tempDir();
      writeFileSync(join(outside, "secret"), "s3cret\n");
      symlinkSync(join(outside, "secret"), join(root, "f.txt"));
      const dir = openVerifiedDir(root, "", { byPath });
      opened.push(dir);
      expect(readFileIn(dir, "f.txt", 1000).kind).toBe("not-regular");
      writeFileIn(dir, "f.txt", "mine\n");
      expect(readFileSync(join(outside, "secret"), "utf8")).toBe("s3cret\n");
      expect(readFileSync(join(root, "f.txt"), "utf8")).toBe("mine\n");
      removeFileIn(dir, "f.txt");
      expect(existsSync(join(root, "f.txt"))).toBe(false);
    });
  });
}

test("held by handle: a folder swapped for a symlink after opening still gets the write", () => {
  const root = tempDir();
  const outside = tempDir();
  mkdirSync(join(root, "sub"));
  const dir = openVerifiedDir(root, "sub");
  opened.push(dir);
  renameSync(join(root, "sub"), join(root, "moved"));
  symlinkSync(outside, join(root, "sub"));
  writeFileIn(dir, "x.txt", "agent\n");
  expect(readdirSync(outside)).toEqual([]);
  expect(readFileSync(join(root, "moved/x.txt"), "utf8")).toBe("agent\n");
});

test("walked by path: a folder swapped after the check is noticed before the rename", () => {
  const root = tempDir();
  const outside = tempDir();
  mkdirSync(join(root, "sub"));
  const dir = openVerifiedDir(root, "sub", { byPath: true });
  renameSync(join(root, "sub"), join(root, "moved"));
  symlinkSync(outside, join(root, "sub"));
  expect(() => writeFileIn(dir, "x.txt", "agent\n")).toThrow();
  expect(readdirSync(outside)).toEqual([]);
});

test("the folder lock: exclusive, released, and a dead holder's lock is broken", () => {
  const root = tempDir();
  const dir = openVerifiedDir(root, "");
  opened.push(dir);
  symlinkSync(JSON.stringify({ pid: 2 ** 22 + 4321, started: 1 }), join(root, "L"));
  const release = lockDirSync(dir, "L", 2000);
  expect(JSON.parse(readlinkSync(join(root, "L"))).pid).toBe(process.pid);
  // Held by a live process (this one): another taker waits, then gives up naming it.
  expect(() => lockDirSync(dir, "L", 50)).toThrow(LockTimeout);
  expect(() => lockDirSync(dir, "L", 50)).toThrow(`process ${process.pid}`);
  release();
  release();
  expect(existsSync(join(root, "L"))).toBe(false);
  lockDirSync(dir, "L", 50)();
});

test("the folder lock: a breaker that died mid-break does not block the lock for good", () => {
  const root = tempDir();
  const dir = openVerifiedDir(root, "");
  opened.push(dir);
  symlinkSync(JSON.stringify({ pid: 2 ** 22 + 4321, started: 1 }), join(root, "L"));
  writeFileSync(join(root, "L.break"), "");
  const old = new Date(Date.now() - 60_000);
  utimesSync(join(root, "L.break"), old, old);
  lockDirSync(dir, "L", 5000)();
  expect(readdirSync(root)).toEqual([]);
});
