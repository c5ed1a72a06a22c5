import { expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { platformLimits } from "../../src/platform/limits.ts";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

test("a string run with no bash on PATH says bash is what is missing and how to do without", () => {
  const root = tempDir("cpilot-nobash-", { git: true });
  writeFiles(root, {
    "callbacks.config.ts": `export default { callbacks: [{ name: "lint", pattern: "*.txt", run: "true", timeout: 10 }] };\n`,
    "a.txt": "",
  });
  // A PATH with git (cpilot asks it for the project's files) and nothing else.
  const bin = tempDir("cpilot-path-");
  symlinkSync("/usr/bin/git", join(bin, "git"));
  const r = cpilot(["check", "a.txt", "--json"], { cwd: root, env: { PATH: bin } });
  const run = JSON.parse(r.stdout).runs[0];
  expect(run.status).toBe("failed");
  expect(run.summary).toContain(
    "a string `run` needs bash on PATH, or write `run` as an argv array",
  );
});

test("Linux has no limits to state; macOS and Windows name theirs", () => {
  expect(platformLimits("linux")).toEqual([]);
  expect(platformLimits("darwin").join("\n")).toContain("inotify is Linux only");
  expect(platformLimits("win32").join("\n")).toContain("no process groups");
});
