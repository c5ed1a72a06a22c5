import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { utimesSync } from "node:fs";
import { join } from "node:path";
import { CONTENT_SNAPSHOT_LIMIT, compareSnapshot, snapshot } from "../../src/engine/resync.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

/**
 * A large batch's resync either watches the batch's folders (many files per folder, on
 * Linux) or looks at every file afterwards (few per folder); both must report the same.
 */
function project(
  folders: number,
  perFolder: number,
  inFirst = perFolder,
): { root: string; paths: string[] } {
  const root = tempDir("cpilot-resync-watch-");
  const files: Record<string, string> = {};
  for (let f = 0; f < folders; f++) {
    for (let i = 0; i < (f === 0 ? inFirst : perFolder); i++) files[`d${f}/f${i}.txt`] = `v${i}\n`;
  }
  writeFiles(root, files);
  const past = new Date(Date.now() - 60_000);
  for (const path of Object.keys(files)) utimesSync(join(root, path), past, past);
  return { root, paths: Object.keys(files) };
}

/** What a formatter-ish callback does, in a process of its own. */
const CALLBACK = [
  "echo in-place > d0/f1.txt", // rewritten where it is
  "echo replaced > d0/.tmp && mv d0/.tmp d0/f2.txt", // replaced by a rename
  "rm d0/f3.txt", // deleted
  "chmod 600 d0/f4.txt", // a chmod is not a rewrite
  "touch d0/f5.txt", // a new mtime counts, as it does for a stat
  "echo new > d0/not-planned.txt", // not in the batch
].join(" && ");

const EXPECTED = [
  { path: "d0/f1.txt", newText: "in-place\n" },
  { path: "d0/f2.txt", newText: "replaced\n" },
  { path: "d0/f3.txt", newText: null },
  { path: "d0/f5.txt", newText: "v5\n" },
];

const linux = process.platform === "linux";

describe("large-batch resync", () => {
  test.if(linux)("many files per folder: the folders are watched", async () => {
    const { root, paths } = project(2, CONTENT_SNAPSHOT_LIMIT);
    const before = await snapshot(root, paths);
    expect(before.since !== undefined && before.watch !== null).toBe(true);
    execFileSync("bash", ["-c", CALLBACK], { cwd: root });
    const resyncs = await compareSnapshot(root, before);
    expect(resyncs.map(({ path, newText }) => ({ path, newText }))).toEqual(EXPECTED);
  });

  test("few files per folder: every file is looked at, with the same answer", async () => {
    // one file to a folder (six in the one the callback writes to): a watch each costs more
    const { root, paths } = project(CONTENT_SNAPSHOT_LIMIT + 10, 1, 6);
    const before = await snapshot(root, paths);
    expect(before.since !== undefined && before.watch === null).toBe(true);
    execFileSync("bash", ["-c", CALLBACK], { cwd: root });
    const resyncs = await compareSnapshot(root, before);
    expect(resyncs.map(({ path, newText }) => ({ path, newText }))).toEqual(EXPECTED);
  });

  test.if(linux)(
    "a watched folder that a callback replaces whole: every file is looked at",
    async () => {
      const { root, paths } = project(2, CONTENT_SNAPSHOT_LIMIT);
      const before = await snapshot(root, paths);
      expect(before.since !== undefined && before.watch !== null).toBe(true);
      // the new d1 is not the folder being watched: its writes reach no watch
      execFileSync("bash", ["-c", "mv d1 d1.old && mkdir d1 && echo regenerated > d1/f7.txt"], {
        cwd: root,
      });
      const resyncs = await compareSnapshot(root, before);
      const gone = paths.filter((p) => p.startsWith("d1/") && p !== "d1/f7.txt");
      expect(resyncs.map((r) => r.path)).toEqual(["d1/f7.txt", ...gone].sort());
      expect(resyncs.find((r) => r.path === "d1/f7.txt")?.newText).toBe("regenerated\n");
    },
  );

  test.if(linux)("writes that happen before the snapshot are not news", async () => {
    const { root, paths } = project(1, CONTENT_SNAPSHOT_LIMIT + 1);
    execFileSync("bash", ["-c", "echo early > d0/f1.txt"], { cwd: root });
    const before = await snapshot(root, paths);
    expect(await compareSnapshot(root, before)).toEqual([]);
  });
});
