/**
 * Where a session's results are kept in a repository with several configs: at the
 * repository's top, each with the config that judged it, found from any of the configs'
 * folders, and pruned from any of them.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import {
  pruneSessions,
  recordResult,
  sessionResults,
} from "../../src/agent-session/session-state.ts";
import { tempDir } from "../helpers/tmp.ts";

const failed = (callback: string, file: string) => ({
  id: `r-${callback}`,
  callback,
  files: [file],
  blocking: true,
  status: "failed" as const,
  exitCode: 1,
  signal: null,
  durationMs: 5,
  logPath: "",
  tail: [],
  summary: "",
  successMessage: undefined,
  startedAt: 1000,
});

test("a package's results and the root's are kept together, apart by config, and found from either folder", () => {
  const root = tempDir("cpilot-home-", { git: true });
  const pkg = join(root, "packages/a");
  mkdirSync(pkg, { recursive: true });
  const rootConfig = join(root, "callbacks.config.json");
  const pkgConfig = join(pkg, "callbacks.config.json");
  recordResult(pkg, "s1", failed("lint", "x.ts"), "file", pkgConfig);
  recordResult(root, "s1", failed("lint", "x.ts"), "file", rootConfig);
  const seen = (at: string) =>
    sessionResults(at, "s1")
      .map((r) => [r.config, r.callback, r.files.join()])
      .sort();
  const both = [
    [rootConfig, "lint", "x.ts"],
    [pkgConfig, "lint", "x.ts"],
  ].sort();
  expect(seen(root)).toEqual(both);
  expect(seen(pkg)).toEqual(both);
  expect(existsSync(join(root, ".git", "cpilot", "sessions", "s1", "results"))).toBe(true);
});

test("an old session's results at the repository's top are pruned from a package's folder too", () => {
  const root = tempDir("cpilot-home-", { git: true });
  const pkg = join(root, "packages/a");
  mkdirSync(pkg, { recursive: true });
  recordResult(pkg, "s1", failed("lint", "x.ts"), "file", join(pkg, "callbacks.config.json"));
  const session = join(root, ".git", "cpilot", "sessions", "s1");
  const old = new Date(Date.now() - 30 * 24 * 3600 * 1000);
  utimesSync(session, old, old);
  expect(pruneSessions(pkg)).toBe(1);
  expect(existsSync(session)).toBe(false);
});
