/**
 * The sharded workflow of docs/ci.md (docs/examples/cpilot-shards.yml), played with the
 * built binary and the real remote cache server: main's push in one clone (a CI machine),
 * then a pull request in another clone.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import { type RemoteCacheServer, startRemoteCacheServer } from "../support/remote-cache-server.ts";
import { runWorkflow, type WorkflowContext } from "../support/workflow-runner.ts";

const WORKFLOW = resolve(import.meta.dir, "../../docs/examples/cpilot-shards.yml");
const FILES = Array.from({ length: 10 }, (_, i) => `src/f${i}.ts`);
const CONFIG = JSON.stringify({
  callbacks: [
    {
      name: "lint",
      pattern: "src/*.ts",
      per: "file",
      timeout: 30,
      run: 'for f in "$@"; do echo "$f" >> "$CP_PROJECT_ROOT/../seen.log"; done',
    },
  ],
});

let server: RemoteCacheServer;
beforeAll(async () => {
  server = await startRemoteCacheServer({ storeTags: true });
}, 120_000); // the server takes a second to start, much longer on a busy machine
afterAll(() => server?.stop());

/** A bare origin holding the project, and `npx` that leads to the built cpilot. */
function origin(): { bare: string; bin: string } {
  const work = join(tempDir("cpilot-wf-"), "work");
  writeFiles(work, {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.json": CONFIG,
    ...Object.fromEntries(FILES.map((f) => [f, "ok\n"])),
  });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: work, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "init");
  const bare = join(work, "..", "origin.git");
  execFileSync("git", ["clone", "-q", "--bare", work, bare]);
  const bin = tempDir("cpilot-npx-");
  writeFileSync(
    join(bin, "npx"),
    `#!/bin/sh\n[ "$1" = cpilot ] && shift\nexec "${cpilotBinary()}" "$@"\n`,
  );
  chmodSync(join(bin, "npx"), 0o755);
  return { bare, bin };
}

/** A clone of `bare` in a folder of its own: one machine. */
function machine(bare: string): string {
  const dir = join(tempDir("cpilot-machine-"), "repo");
  execFileSync("git", ["clone", "-q", bare, dir]);
  return dir;
}

function context(
  event: "push" | "pull_request",
  workdir: string,
  store: string,
  bin: string,
): WorkflowContext {
  return {
    event,
    sha: execFileSync("git", ["rev-parse", "HEAD"], { cwd: workdir, encoding: "utf8" }).trim(),
    vars: { CPILOT_REMOTE_CACHE_URL: server.url, CPILOT_REMOTE_CACHE_TEAM: server.team },
    secrets: {
      CPILOT_REMOTE_CACHE_SIGNATURE_KEY: "signing-key",
      CPILOT_REMOTE_CACHE_WRITE_TOKEN: server.token,
      CPILOT_REMOTE_CACHE_READ_TOKEN: server.token,
    },
    workdir,
    store,
    temp: join(store, "temp", event),
    // what is tested is not the time: a busy machine may take long to answer
    baseEnv: {
      CPILOT_REMOTE_CACHE_TIMEOUT_MS: "60000",
      PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`,
      HOME: process.env.HOME ?? "/root",
      CI: "true",
      ...runtimeEnv(),
    },
  };
}

const seen = (workdir: string) =>
  readFileSync(join(workdir, "..", "seen.log"), "utf8")
    .trim()
    .split("\n")
    .sort();

test("the docs show the tested workflow as it is", () => {
  const docs = readFileSync(resolve(import.meta.dir, "../../docs/ci.md"), "utf8");
  expect(docs).toContain(readFileSync(WORKFLOW, "utf8").trim());
});

test("main's push checks every file once in 4 shards, writes the results and keeps the durations; a pull request's shards split alike and run nothing", () => {
  const { bare, bin } = origin();
  const store = tempDir("cpilot-actions-");

  const ci = machine(bare);
  const push = runWorkflow(WORKFLOW, context("push", ci, store, bin));
  expect(push.map((r) => [r.job, r.shard, r.code, r.code === 0 ? "" : r.stderr])).toEqual([
    ["check", "1", 0, ""],
    ["check", "2", 0, ""],
    ["check", "3", 0, ""],
    ["check", "4", 0, ""],
    ["merge", undefined, 0, ""],
  ]);
  expect(seen(ci)).toEqual(FILES);
  // main's push wrote each result, signed (an entry and its tag per file)
  const written = readdirSync(join(server.storage, server.team)).sort();
  expect(written).toHaveLength(2 * FILES.length);
  expect(readdirSync(join(store, "cache"))).toEqual([
    `cpilot-durations-${context("push", ci, store, bin).sha}`,
  ]);

  const pr = machine(bare);
  const run = runWorkflow(WORKFLOW, context("pull_request", pr, store, bin));
  expect(run.map((r) => r.code)).toEqual([0, 0, 0, 0, 0]);
  // main's durations were restored: no shard split without them
  expect(run.filter((r) => r.stderr.includes("no durations"))).toEqual([]);
  const temp = context("pull_request", pr, store, bin).temp;
  const shards = [1, 2, 3, 4].map((i) =>
    JSON.parse(readFileSync(join(temp, `cpilot-shard-${i}.json`), "utf8")),
  );
  expect(new Set(shards.map((s) => s.shard.split)).size).toBe(1);
  expect(
    shards
      .flatMap((s) => s.shard.files)
      .filter((f: string) => f.startsWith("src/"))
      .sort(),
  ).toEqual(FILES);
  expect(existsSync(join(temp, "cpilot-durations.json"))).toBe(true);
  // every result came from the cache: nothing ran on the pull request's machine, nothing was written
  expect(existsSync(join(pr, "..", "seen.log"))).toBe(false);
  expect(
    shards.flatMap((s) => s.runs).every((r: { fromCache?: boolean }) => r.fromCache === true),
  ).toBe(true);
  expect(readdirSync(join(server.storage, server.team)).sort()).toEqual(written);
});
