/**
 * `indexStamp` says whether git's index was written since it was read: it decides whether a
 * `check --staged` asks git what was staged while it ran. These rewrite an index at the same
 * size and put its time back, as a second write within one tick of the file system's clock
 * does (a few milliseconds; a second or two on some disks).
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { indexStamp } from "../../src/stage/index-changed.ts";
import { tempDir } from "../helpers/tmp.ts";

/** An index-like file: entries, the end of the last one, and git's trailing SHA-1 of them (or zeros). */
function index(entries: string, trailer: "hash" | "zeros"): Buffer {
  const body = Buffer.from(`DIRC${entries}last-entry.txt`);
  const tail = trailer === "hash" ? createHash("sha1").update(body).digest() : Buffer.alloc(20);
  return Buffer.concat([body, tail]);
}

function rewrittenInOneTick(trailer: "hash" | "zeros"): {
  before: string | null;
  after: string | null;
} {
  const dir = tempDir("cpilot-index-stamp-");
  const file = join(dir, "index");
  writeFileSync(file, index("a".repeat(400), trailer));
  const before = indexStamp(file);
  execFileSync("touch", ["-m", "-r", file, join(dir, "time")]);
  // another blob id staged in an entry: the same size, the same end of file but for the trailer
  writeFileSync(file, index("b".repeat(400), trailer));
  execFileSync("touch", ["-m", "-r", join(dir, "time"), file]);
  return { before, after: indexStamp(file) };
}

test("an index rewritten at the same size within one tick: its trailing hash changes the stamp", () => {
  const { before, after } = rewrittenInOneTick("hash");
  expect(before).not.toBeNull();
  expect(after).not.toBe(before);
});

// git >= 2.40 with index.skipHash (which feature.manyFiles turns on) writes zeros where the
// hash goes: size, time and tail alone would not see a file staged meanwhile within one tick.
test("an index written without its trailing hash (index.skipHash), rewritten within one tick", () => {
  const { before, after } = rewrittenInOneTick("zeros");
  expect(before).not.toBeNull();
  expect(after).not.toBe(before);
});

test("an index without its trailing hash, untouched: the same stamp, git is not asked", () => {
  const dir = tempDir("cpilot-index-stamp-");
  const file = join(dir, "index");
  writeFileSync(file, index("a".repeat(400), "zeros"));
  expect(indexStamp(file)).not.toBeNull();
  expect(indexStamp(file)).toBe(indexStamp(file));
});
