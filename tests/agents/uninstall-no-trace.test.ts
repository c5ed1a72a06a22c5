/** `cpilot install <agent>` then `uninstall` in a project leaves its git status as it was. */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot, pathWithCpilot } from "../helpers/binary.ts";
import { committedRepo, tempDir, writeFiles } from "../helpers/tmp.ts";

const status = (root: string): string =>
  spawnSync("git", ["status", "--porcelain", "--untracked-files=all"], {
    cwd: root,
    encoding: "utf8",
  }).stdout;

for (const agent of ["claude", "gemini", "codex", "qwen", "cursor", "copilot", "opencode"]) {
  test(`${agent}: uninstall takes out the settings file and folder install made; a folder with more in it stays`, () => {
    const root = committedRepo(`cpilot-no-trace-${agent}-`, {
      "callbacks.config.json": JSON.stringify({ callbacks: [] }),
    });
    const home = tempDir("cpilot-no-trace-home-");
    const env = { PATH: pathWithCpilot(), HOME: home };
    const before = status(root);
    const installed = cpilot(["install", agent], { cwd: root, env });
    expect({ code: installed.code, err: installed.stderr }).toEqual({
      code: 0,
      err: expect.any(String),
    });
    expect(status(root)).not.toBe(before);
    const removed = cpilot(["uninstall", agent], { cwd: root, env });
    expect({ code: removed.code, err: removed.stderr }).toEqual({
      code: 0,
      err: expect.any(String),
    });
    expect(status(root)).toBe(before);
    // The project's own file in that folder keeps the folder, and itself.
    const folder = `.${agent}`;
    writeFiles(root, { [`${folder}/mine.md`]: "mine\n" });
    cpilot(["install", agent], { cwd: root, env });
    cpilot(["uninstall", agent], { cwd: root, env });
    expect(status(root)).toBe(`?? ${folder}/mine.md\n`);
    expect(readFileSync(join(root, folder, "mine.md"), "utf8")).toBe("mine\n");
  });
}
