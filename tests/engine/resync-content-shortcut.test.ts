import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { symlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { compareSnapshot, snapshot } from "../../src/engine/resync.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

/**
 * A content snapshot of a batch of some size reads again after the runs only the files
 * whose status changed since it was taken. A rewrite must never hide from that shortcut:
 * not behind a restored mtime, a same-size replacement, nor a symlink pointed elsewhere.
 */
test("the comparison after the runs still finds every rewrite a callback hides", async () => {
  const root = tempDir("cpilot-resync-shortcut-");
  const files: Record<string, string> = { "target-a.txt": "aaaa\n", "target-b.txt": "bbbb\n" };
  for (let i = 0; i < 40; i++) files[`f${i}.txt`] = `v${i % 10}\n`;
  writeFiles(root, files);
  symlinkSync("target-a.txt", join(root, "link.txt"));
  const past = new Date(Date.now() - 3_600_000);
  for (const path of Object.keys(files)) utimesSync(join(root, path), past, past);
  const paths = [...Object.keys(files).filter((p) => p.startsWith("f")), "link.txt"];
  const before = await snapshot(root, paths);

  const stamp = `@${Math.floor(past.getTime() / 1000)}`;
  execFileSync(
    "bash",
    [
      "-c",
      [
        // same size, mtime put back
        `printf 'x1\\n' > f1.txt && touch -d ${stamp} f1.txt`,
        // replaced by a rename, same size, mtime put back first
        `printf 'x2\\n' > .tmp && touch -d ${stamp} .tmp && mv .tmp f2.txt`,
        // the link now points at a file of the same size
        "ln -sfn target-b.txt link.txt",
        "rm f3.txt",
      ].join(" && "),
    ],
    { cwd: root },
  );

  const resyncs = await compareSnapshot(root, before);
  expect(resyncs.map((r) => [r.path, r.newText])).toEqual([
    ["f1.txt", "x1\n"],
    ["f2.txt", "x2\n"],
    ["f3.txt", null],
    ["link.txt", "bbbb\n"],
  ]);
});
