/**
 * Attacks on `cpilot check` whose config sits below the repository's top (a package of a
 * monorepo), against the compiled binary: git names files from its top, the config's
 * callbacks from the config's folder.
 */
import { afterEach, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { removeTempDirs, tempDir, writeFiles } from "../helpers/tmp.ts";

afterEach(removeTempDirs);

const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

test("--fail-on-change fails when a callback rewrites a file of a config below the top that was not in the batch", () => {
  const top = tempDir("cpilot-attack-sub-", { git: true });
  const root = join(top, "pkg");
  mkdirSync(root);
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        { name: "gen", pattern: "*.txt", timeout: 30, fixes: true, run: "echo new > gen.out" },
      ],
    }),
    "a.txt": "a\n",
    "gen.out": "old\n",
  });
  git(top, "add", "-A");
  git(top, "commit", "-qm", "init");
  const r = cpilot(["check", "--all", "--fail-on-change"], { cwd: root });
  expect(r.stderr).toContain("gen.out");
  expect(r.code).toBe(1);
});
