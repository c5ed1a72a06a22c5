// `cpilot _background SPEC` is cpilot's own (startBackground spawns it) and deletes
// the spec once read: any other file named there must be refused and kept.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

test("a file that is not a background spec cpilot wrote is refused and left in place", () => {
  const root = tempDir();
  writeFiles(root, {
    "package.json": JSON.stringify({ root, runs: [] }),
    ".cpilot/background/not-a-run-id.json.bak": "{}",
    ".cpilot/elsewhere/mhx8k2p1-a3f9c1.json": JSON.stringify({ root, runs: [] }),
  });
  for (const path of [
    "package.json",
    ".cpilot/background/not-a-run-id.json.bak",
    ".cpilot/elsewhere/mhx8k2p1-a3f9c1.json",
  ]) {
    const r = cpilot(["_background", join(root, path)], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("it is not a background spec cpilot wrote");
    expect(existsSync(join(root, path))).toBe(true);
  }
});
