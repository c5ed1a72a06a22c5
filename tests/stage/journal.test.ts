/**
 * The stage folder's hold (src/stage/journal.ts): a check that set nothing aside gives its
 * folder back whole, by a rename, as the next claim's spare; a claim takes the spare only
 * when it holds nothing but an old journal, and never writes through a planted link.
 */
import { expect, test } from "bun:test";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import {
  claimStage,
  readJournal,
  releaseStage,
  releaseUnusedStage,
  stageDir,
} from "../../src/stage/journal.ts";
import { tempDir } from "../helpers/tmp.ts";

function fresh(): { dir: string; spare: string; top: string } {
  const top = tempDir("cpilot-journal-", { git: true });
  mkdirSync(join(top, ".git", "cpilot"), { recursive: true });
  const dir = stageDir(join(top, ".git"));
  return { dir, spare: `${dir}.spare`, top };
}

const hold = (top: string, createdAt: string) => ({
  version: 1 as const,
  top,
  root: top,
  createdAt,
  tracked: [],
  untracked: [],
});

test("a stage folder let go unused becomes the next claim's folder: renamed both ways, never made or removed", () => {
  const { dir, spare, top } = fresh();
  expect(claimStage(dir, hold(top, "first"), { durable: false })).toBe(true);
  const inode = statSync(dir).ino;
  releaseUnusedStage(dir);
  expect(existsSync(dir)).toBe(false); // no check is pending: nothing to recover
  expect(statSync(spare).ino).toBe(inode);
  expect(claimStage(dir, hold(top, "second"), { durable: false })).toBe(true);
  expect(statSync(dir).ino).toBe(inode);
  expect(existsSync(spare)).toBe(false);
  // the new journal, whole, in place of the old one
  expect(readJournal(dir)).toMatchObject({ createdAt: "second", pid: process.pid });
  expect(readdirSync(dir)).toEqual(["journal.json"]);
  releaseStage(dir);
  expect(existsSync(dir)).toBe(false);
});

test("a second claim fails while the first holds the stage, and leaves the spare it took", () => {
  const { dir, spare, top } = fresh();
  expect(claimStage(dir, hold(top, "a"), { durable: false })).toBe(true);
  releaseUnusedStage(dir);
  expect(claimStage(dir, hold(top, "b"), { durable: false })).toBe(true);
  // another check meanwhile: there is no spare now, and the stage is held
  expect(claimStage(dir, hold(top, "c"), { durable: false })).toBe(false);
  expect(readJournal(dir)).toMatchObject({ createdAt: "b" });
  expect(readdirSync(join(dir, ".."))).toEqual(["stage"]);
  expect(existsSync(spare)).toBe(false);
});

test("a longer old journal is written over in place, padded, never truncated: the new one reads whole", () => {
  const { dir, spare, top } = fresh();
  mkdirSync(spare);
  const old = join(spare, "journal.json");
  writeFileSync(
    old,
    JSON.stringify({ version: 1, top: "x".repeat(3000), tracked: [], untracked: [] }),
  );
  const { ino, size } = statSync(old);
  expect(claimStage(dir, hold(top, "padded"), { durable: false })).toBe(true);
  const now = statSync(join(dir, "journal.json"));
  expect(now.ino).toBe(ino);
  expect(now.size).toBe(size); // no block of it freed
  expect(readJournal(dir)).toMatchObject({ createdAt: "padded", top, tracked: [], untracked: [] });
});

test("a spare holding anything but a journal is not carried into the stage", () => {
  const { dir, spare, top } = fresh();
  mkdirSync(join(spare, "tracked"), { recursive: true });
  writeFileSync(join(spare, "tracked", "a.txt"), "stale\n");
  writeFileSync(join(spare, "journal.json"), "{}");
  expect(claimStage(dir, hold(top, "x"), { durable: false })).toBe(true);
  expect(readdirSync(dir)).toEqual(["journal.json"]);
  expect(existsSync(spare)).toBe(false);
});

test("a spare whose journal is a planted link is not taken: nothing is written through it", () => {
  const { dir, spare, top } = fresh();
  const outside = join(tempDir("cpilot-outside-"), "victim.txt");
  writeFileSync(outside, "keep me\n");
  mkdirSync(spare);
  symlinkSync(outside, join(spare, "journal.json"));
  expect(claimStage(dir, hold(top, "y"), { durable: false })).toBe(true);
  expect(readFileSync(outside, "utf8")).toBe("keep me\n");
  expect(lstatSync(join(dir, "journal.json")).isFile()).toBe(true);
  expect(readJournal(dir)).toMatchObject({ createdAt: "y" });
});

test("a link planted as the spare folder is not taken: the stage is a real folder, nothing written where it points", () => {
  const { dir, spare, top } = fresh();
  const outside = tempDir("cpilot-outside-");
  symlinkSync(outside, spare);
  expect(claimStage(dir, hold(top, "w"), { durable: false })).toBe(true);
  expect(readdirSync(outside)).toEqual([]);
  expect(lstatSync(dir).isDirectory()).toBe(true);
  expect(readJournal(dir)).toMatchObject({ createdAt: "w" });
});

test("letting go while another check's spare is there: the stage folder is removed, the spare kept", () => {
  const { dir, spare, top } = fresh();
  expect(claimStage(dir, hold(top, "mine"), { durable: false })).toBe(true);
  mkdirSync(spare);
  writeFileSync(join(spare, "journal.json"), "{}");
  releaseUnusedStage(dir);
  expect(existsSync(dir)).toBe(false);
  expect(readdirSync(spare)).toEqual(["journal.json"]);
});
