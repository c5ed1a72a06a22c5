/**
 * Two clones at different commits share results through the real remote cache server on
 * 127.0.0.1 when the check declares its `inputs`: main's CI writes, a pull request's clone
 * (a commit on top that changes an unrelated file) runs nothing for the files main passed.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import { type RemoteCacheServer, startRemoteCacheServer } from "../support/remote-cache-server.ts";

let server: RemoteCacheServer;
beforeAll(async () => {
  server = await startRemoteCacheServer({ storeTags: true });
}, 120_000); // the server takes a second to start, much longer on a busy machine
afterAll(() => server?.stop());

const FILES = ["src/a.ts", "src/b.ts"];

function origin(): string {
  const work = join(tempDir("cpilot-inputs-2m-"), "work");
  writeFiles(work, {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        {
          name: "banned",
          pattern: "src/*.ts",
          per: "file",
          timeout: 30,
          inputs: ["banned.txt"],
          run: 'echo "$1" >> "$CP_PROJECT_ROOT/../ran.log"; ! grep -l -f banned.txt "$@"',
        },
      ],
    }),
    "banned.txt": "BAD\n",
    "README.md": "one\n",
    ...Object.fromEntries(FILES.map((f) => [f, "ok\n"])),
  });
  commit(work, "init", ["init", "-q", "-b", "main"]);
  return work;
}

function commit(dir: string, message: string, first: string[] = []): void {
  if (first.length > 0) execFileSync("git", first, { cwd: dir, stdio: "pipe" });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "pipe" });
  git("add", "-A");
  git("-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", message);
}

function machine(from: string): string {
  const dir = join(tempDir("cpilot-machine-"), "repo");
  execFileSync("git", ["clone", "-q", from, dir]);
  return dir;
}

function ran(clone: string): string[] {
  const log = join(clone, "..", "ran.log");
  return existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").sort() : [];
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    CPILOT_REMOTE_CACHE_URL: server.url,
    CPILOT_REMOTE_CACHE_TOKEN: server.token,
    CPILOT_REMOTE_CACHE_TEAM: "team_inputs",
    CPILOT_REMOTE_CACHE_SIGNATURE_KEY: "the-team-key",
    // what is tested is not the time: a busy machine may take long to answer
    CPILOT_REMOTE_CACHE_TIMEOUT_MS: "60000",
    ...extra,
  };
}

test("a pull request's clone at another commit replays main's passes through inputs", () => {
  const from = origin();
  const ci = machine(from);
  const first = cpilot(["check", "--all"], {
    cwd: ci,
    env: env({ CPILOT_REMOTE_CACHE_WRITE: "1" }),
  });
  expect(first.code).toBe(0);
  expect(ran(ci)).toEqual(FILES);

  writeFileSync(join(from, "README.md"), "two\n");
  commit(from, "docs");
  const pr = machine(from);
  const second = cpilot(["check", "--all", "--json"], { cwd: pr, env: env() });
  expect(second.code).toBe(0);
  const json = JSON.parse(second.stdout) as { runs: { fromCache?: boolean }[] };
  expect(json.runs.map((r) => r.fromCache)).toEqual([true, true]);
  expect(ran(pr)).toEqual([]);

  // an input changed on the branch: everything it reads runs again
  writeFileSync(join(pr, "banned.txt"), "ok\n");
  expect(cpilot(["check", "--all"], { cwd: pr, env: env() }).code).toBe(1);
  expect(ran(pr)).toEqual(FILES);
}, 120_000);
