/**
 * Two clones stand for two machines, with the built binary and the real Turborepo remote
 * cache server on 127.0.0.1: CI (writes) checks everything; a laptop (reads only) checks the
 * same content and runs no callback; a changed file runs for real while the rest hit;
 * entries tampered with on the server are not trusted; the reader writes nothing. A server
 * that is down, slow or answers nonsense: the checks run and pass as without a cache.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import {
  closedPortUrl,
  nonsenseProcess,
  type RemoteCacheServer,
  silentServer,
  startRemoteCacheServer,
} from "../support/remote-cache-server.ts";

const FILES = ["src/a.ts", "src/b.ts", "src/c.ts", "src/d.ts", "src/e.ts"];

/** Each run logs the files it was given beside the clone: what ran for real on this machine. */
const CONFIG = JSON.stringify({
  callbacks: [
    {
      name: "lint",
      pattern: "src/*.ts",
      per: "file",
      timeout: 30,
      run: 'for f in "$@"; do echo "$f" >> "$CP_PROJECT_ROOT/../ran.log"; done; if grep -q "^BAD" "$1"; then echo "$1:1:1: error: a bad line"; exit 1; fi',
    },
  ],
});

let server: RemoteCacheServer;
beforeAll(async () => {
  server = await startRemoteCacheServer({ storeTags: true });
}, 120_000); // the server takes a second to start, much longer on a busy machine
afterAll(() => server?.stop());

function origin(files: Record<string, string> = {}): string {
  const work = join(tempDir("cpilot-2m-"), "work");
  writeFiles(work, {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.json": CONFIG,
    ...Object.fromEntries(FILES.map((f) => [f, "ok\n"])),
    ...files,
  });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: work, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "init");
  return work;
}

/** A clone in a folder of its own: one machine. */
function machine(from: string): string {
  const dir = join(tempDir("cpilot-machine-"), "repo");
  execFileSync("git", ["clone", "-q", from, dir]);
  return dir;
}

function ran(clone: string): string[] {
  const log = join(clone, "..", "ran.log");
  return existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").sort() : [];
}

function env(
  team: string,
  extra: Record<string, string> = {},
  url = server.url,
): Record<string, string> {
  return {
    CPILOT_REMOTE_CACHE_URL: url,
    CPILOT_REMOTE_CACHE_TOKEN: server.token,
    CPILOT_REMOTE_CACHE_TEAM: team,
    CPILOT_REMOTE_CACHE_SIGNATURE_KEY: "the-team-key",
    // what is tested is not the time: a busy machine may take long to answer
    CPILOT_REMOTE_CACHE_TIMEOUT_MS: "60000",
    ...extra,
  };
}

/** The entries the server holds for `team`, with their modification times. */
function entries(team: string): Map<string, number> {
  const dir = join(server.storage, team);
  if (!existsSync(dir)) return new Map();
  return new Map(readdirSync(dir).map((name) => [name, statSync(join(dir, name)).mtimeMs]));
}

type Run = {
  callback: string;
  files: string[];
  status: string;
  fromCache?: boolean;
  diagnostics: unknown[];
};

function check(clone: string, e: Record<string, string>, args: string[] = []) {
  const r = cpilot(["check", "--all", "--json", ...args], { cwd: clone, env: e });
  return { ...r, json: JSON.parse(r.stdout) as { ok: boolean; runs: Run[]; notes: string[] } };
}

describe("two machines share results through the real server", () => {
  test("CI writes; a read-only clone of the same content runs nothing, writes nothing, and fails the same", () => {
    const team = "team_two";
    const from = origin({ "src/c.ts": "BAD\n" });

    const ci = machine(from);
    const first = check(ci, env(team, { CPILOT_REMOTE_CACHE_WRITE: "1" }));
    expect(first.code).toBe(1);
    expect(ran(ci)).toEqual(FILES);
    // one entry and its signature per run
    expect(entries(team).size).toBe(2 * FILES.length);
    const written = entries(team);

    const laptop = machine(from);
    const second = check(laptop, env(team));
    expect(second.stderr).not.toContain("remote cache");
    expect(ran(laptop)).toEqual([]);
    expect(second.code).toBe(1);
    expect(second.json.runs.every((r) => r.fromCache === true)).toBe(true);
    expect(second.json.runs.filter((r) => r.status === "failed").map((r) => r.files)).toEqual([
      ["src/c.ts"],
    ]);
    expect(second.json.runs.flatMap((r) => r.diagnostics)).toHaveLength(1);
    expect(entries(team)).toEqual(written);

    // a change runs for real, the rest hit; the reader still writes nothing
    writeFileSync(join(laptop, "src/a.ts"), "changed\n");
    rmSync(join(laptop, ".cpilot"), { recursive: true, force: true }); // no local records: all from the remote
    const third = check(laptop, env(team));
    expect(ran(laptop)).toEqual(["src/a.ts"]);
    expect(third.json.runs.filter((r) => !r.fromCache).map((r) => r.files)).toEqual([["src/a.ts"]]);
    expect(entries(team)).toEqual(written);

    // CPILOT_REMOTE_CACHE_WRITE=1 inside an agent's session writes nothing either
    const agent = machine(from);
    writeFileSync(join(agent, "src/b.ts"), "changed too\n");
    check(
      agent,
      env(team, { CPILOT_REMOTE_CACHE_WRITE: "1", AI_AGENT: "claude-code_2-1-330_cli" }),
    );
    expect(ran(agent)).toEqual(["src/b.ts"]);
    expect(entries(team)).toEqual(written);
  });

  test("a callback that starts a program hits on another machine whose install of it is newer", () => {
    const team = "team_programs";
    const log = 'echo "$0 $*" >> "$CP_PROJECT_ROOT/../ran.log"';
    const from = origin({
      ".gitignore": ".cpilot/\nnode_modules/\n",
      "callbacks.config.json": JSON.stringify({
        callbacks: [
          { name: "script", pattern: "src/*.ts", per: "file", timeout: 30, run: './lint.sh "$@"' },
          {
            name: "installed",
            pattern: "src/*.ts",
            per: "file",
            timeout: 30,
            run: 'node_modules/.bin/tool "$@"',
          },
        ],
      }),
      "lint.sh": `#!/bin/sh\n${log}\n`,
      "package-lock.json": '{"lockfileVersion":3}\n',
    });
    chmodSync(join(from, "lint.sh"), 0o755);
    execFileSync("git", ["add", "-A"], { cwd: from });
    execFileSync(
      "git",
      ["-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "tools"],
      {
        cwd: from,
      },
    );
    /** `npm install` on one machine: the same program, written at that machine's own time. */
    const install = (clone: string, at: Date) => {
      writeFiles(clone, { "node_modules/tool/bin.sh": `#!/bin/sh\n${log}\n` });
      const bin = join(clone, "node_modules/tool/bin.sh");
      chmodSync(bin, 0o755);
      utimesSync(bin, at, at);
      mkdirSync(join(clone, "node_modules/.bin"));
      symlinkSync("../tool/bin.sh", join(clone, "node_modules/.bin/tool"));
      // the clone's own checkout time for the script in the repository
      utimesSync(join(clone, "lint.sh"), at, at);
    };
    const ci = machine(from);
    install(ci, new Date("2026-01-01T00:00:00Z"));
    expect(check(ci, env(team, { CPILOT_REMOTE_CACHE_WRITE: "1" })).code).toBe(0);
    expect(ran(ci)).toHaveLength(2 * FILES.length);

    const laptop = machine(from);
    install(laptop, new Date("2026-03-01T00:00:00Z"));
    const r = check(laptop, env(team));
    expect(r.code).toBe(0);
    expect(ran(laptop)).toEqual([]);
    expect(r.json.runs).toHaveLength(2 * FILES.length);
    expect(r.json.runs.every((run) => run.fromCache === true)).toBe(true);

    // another version of the installed program is another check: it runs
    writeFileSync(join(laptop, "node_modules/tool/bin.sh"), `#!/bin/sh\n# 2.0\n${log}\n`);
    rmSync(join(laptop, ".cpilot"), { recursive: true, force: true });
    check(laptop, env(team));
    expect(ran(laptop).every((line) => line.startsWith("node_modules/.bin/tool "))).toBe(true);
    expect(ran(laptop)).toHaveLength(FILES.length);
  });

  test("entries tampered with on the server are not trusted: their checks run, said once", () => {
    const team = "team_tamper";
    const from = origin({ "src/c.ts": "BAD\n" });
    check(machine(from), env(team, { CPILOT_REMOTE_CACHE_WRITE: "1" }));
    // turn the failed result into a pass, still valid JSON of the right shape
    const dir = join(server.storage, team);
    let tampered = 0;
    for (const name of readdirSync(dir).filter((n) => !n.endsWith(".tag"))) {
      const text = readFileSync(join(dir, name), "utf8");
      if (!text.includes('"failed"')) continue;
      writeFileSync(
        join(dir, name),
        text.replace('"failed"', '"passed"').replace(/"exitCode":1/, '"exitCode":0'),
      );
      tampered++;
    }
    expect(tampered).toBe(1);
    const laptop = machine(from);
    const r = check(laptop, env(team));
    expect(ran(laptop)).toEqual(["src/c.ts"]);
    expect(r.code).toBe(1);
    expect(r.json.notes).toEqual([
      expect.stringContaining("1 remote cache entry ignored: the signature did not verify"),
    ]);
    // with another key, nothing verifies: everything runs
    const other = machine(from);
    check(other, { ...env(team), CPILOT_REMOTE_CACHE_SIGNATURE_KEY: "not-the-key" });
    expect(ran(other)).toEqual(FILES);
  });

  test("two shards together run every file once, and a second pair of shards on another machine runs none", () => {
    const team = "team_shards";
    const from = origin();
    const ci = machine(from);
    for (const shard of ["1/2", "2/2"])
      check(ci, env(team, { CPILOT_REMOTE_CACHE_WRITE: "1" }), ["--shard", shard]);
    expect(ran(ci)).toEqual(FILES);
    const other = machine(from);
    for (const shard of ["1/2", "2/2"])
      expect(check(other, env(team), ["--shard", shard]).code).toBe(0);
    expect(ran(other)).toEqual([]);
  });
});

describe("a remote that is down, slow or answers nonsense: checks run and pass as without one", () => {
  async function withoutCache(url: string, notice: RegExp, budget = "60000"): Promise<void> {
    const from = origin();
    const clone = machine(from);
    const r = check(
      clone,
      env(
        "team_x",
        { CPILOT_REMOTE_CACHE_WRITE: "1", CPILOT_REMOTE_CACHE_TIMEOUT_MS: budget },
        url,
      ),
    );
    expect(r.code).toBe(0);
    expect(ran(clone)).toEqual(FILES);
    expect(r.json.notes).toEqual([expect.stringMatching(notice)]);
    // and in the terminal, said once
    const text = cpilot(["check", "--all"], {
      cwd: machine(from),
      env: env("team_x", { CPILOT_REMOTE_CACHE_TIMEOUT_MS: budget }, url),
    });
    expect(text.code).toBe(0);
    expect(text.stderr.match(/remote cache/g)).toHaveLength(1);
  }

  test("down", async () => {
    await withoutCache(await closedPortUrl(), /unreachable \(.+\): checks ran without it/);
  });

  test("slow: accepts and never answers", async () => {
    const silent = await silentServer();
    try {
      await withoutCache(silent.url, /did not answer within 500 ms: checks ran without it/, "500");
    } finally {
      silent.stop();
    }
  });

  test("nonsense", async () => {
    const odd = await nonsenseProcess(200, "<html>");
    try {
      await withoutCache(odd.url, /unreachable \(the batch query: not a JSON object\)/);
    } finally {
      odd.stop();
    }
  });
});
