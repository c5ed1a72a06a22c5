import { expect, test } from "bun:test";
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot, cpilotBinary } from "../helpers/binary.ts";
import { processAlive, tempDir, waitFor, writeFiles } from "../helpers/tmp.ts";

const TS_CONFIG = `import { defineConfig, defineCallback } from "cpilot";

const typed: number = 10;
const lint = defineCallback({ name: "lint", pattern: "*.ts", run: '! grep -l "^BAD" "$@"', timeout: typed });

export default defineConfig({
  callbacks: [
    lint,
    { name: "docs", description: "markdown", pattern: ["docs/**/*.md", "!docs/draft/**"], run: ["true"], timeout: 5, successMessage: "docs fine" },
    { name: "gen", pattern: "*.ts", run: () => 0, timeout: 5 },
  ],
});
`;

function project(config = TS_CONFIG): string {
  const root = tempDir("cpilot-e2e-", { git: true });
  writeFiles(root, {
    "callbacks.config.ts": config,
    "src/a.ts": "ok\n",
    "docs/x.md": "",
    "docs/draft/y.md": "",
    "README.md": "",
  });
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", "init"], { cwd: root });
  return root;
}

test("the standalone binary loads a TypeScript config with no node_modules and no bun anywhere", () => {
  const root = project();
  const bin = join(tempDir("cpilot-bin-"), "cpilot");
  copyFileSync(cpilotBinary(), bin);
  expect(existsSync(join(root, "node_modules"))).toBe(false);
  const r = spawnSyncJson(bin, ["check", "--all", "--json"], root);
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout);
  expect(out.ok).toBe(true);
  expect(out.runs.map((x: { callback: string }) => x.callback).sort()).toEqual([
    "docs",
    "gen",
    "lint",
  ]);
  const docs = out.runs.find((x: { callback: string }) => x.callback === "docs");
  expect(docs.files).toEqual(["docs/x.md"]);
  expect(Object.keys(docs).sort()).toEqual(
    [
      "blocking",
      "callback",
      "config",
      "diagnostics",
      "durationMs",
      "exitCode",
      "files",
      "id",
      "logPath",
      "signal",
      "status",
      "summary",
      "tail",
    ].sort(),
  );
  expect(out.resyncs).toEqual([]);
});

function spawnSyncJson(bin: string, args: string[], cwd: string) {
  const r = require("node:child_process").spawnSync(bin, args, {
    cwd,
    env: { PATH: "/usr/bin:/bin" },
    encoding: "utf8",
  });
  return { code: r.status as number, stdout: r.stdout as string, stderr: r.stderr as string };
}

test("a failing blocking callback exits 1 and shows its output; human text stays off stdout", () => {
  const root = project();
  writeFiles(root, { "src/b.ts": "BAD line\n" });
  const r = cpilot(["check", "src/b.ts"], { cwd: root });
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("✗ lint");
  expect(r.stderr).toContain("exit 1 (failed)");
  expect(r.stderr).toContain("src/b.ts");
  expect(r.stderr).toMatch(/full log: cpilot logs [a-z0-9]+-[a-f0-9]+/);
  expect(r.stderr).not.toContain("\x1b[");
});

test("--changed picks modified and untracked files, --staged the index, and hostile names survive", () => {
  const root = project();
  const hostile = "src/$(touch pwned) it's.ts";
  writeFiles(root, { "src/a.ts": "changed\n", [hostile]: "ok\n", "ignored.ts": "" });
  writeFiles(root, { ".gitignore": "ignored.ts\n" });
  const changed = JSON.parse(
    cpilot(["check", "--changed", "--dry-run", "--json"], { cwd: root }).stdout,
  );
  const lint = changed.runs.find((x: { callback: string }) => x.callback === "lint");
  expect(lint.files.sort()).toEqual([hostile, "src/a.ts"].sort());
  execFileSync("git", ["add", "src/a.ts"], { cwd: root });
  const staged = JSON.parse(
    cpilot(["check", "--staged", "--dry-run", "--json"], { cwd: root }).stdout,
  );
  expect(staged.runs.find((x: { callback: string }) => x.callback === "lint").files).toEqual([
    "src/a.ts",
  ]);
  const run = cpilot(["check", "--changed", "HEAD", "--json"], { cwd: root });
  expect(run.code).toBe(0);
  expect(existsSync(join(root, "pwned"))).toBe(false);
  expect(existsSync(join(root, "src", "pwned"))).toBe(false);
});

test("--only and --skip choose callbacks; an unknown name is a usage error with a suggestion", () => {
  const root = project();
  const only = JSON.parse(
    cpilot(["check", "--all", "--only", "docs", "--dry-run", "--json"], { cwd: root }).stdout,
  );
  expect(only.runs.map((x: { callback: string }) => x.callback)).toEqual(["docs"]);
  const skip = JSON.parse(
    cpilot(["check", "--all", "--skip", "docs", "--skip", "gen", "--dry-run", "--json"], {
      cwd: root,
    }).stdout,
  );
  expect(skip.runs.map((x: { callback: string }) => x.callback)).toEqual(["lint"]);
  const bad = cpilot(["check", "--all", "--only", "lnt"], { cwd: root });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('Cannot use --only "lnt": no callback has that name');
  expect(bad.stderr).toContain('hint: did you mean "lint"?');
});

test("a config error exits 2 and lists every problem, with no stack trace", () => {
  const root = tempDir();
  writeFiles(root, {
    "callbacks.config.ts": `export default { callbacks: [{ name: "A", pattern: "*.ts", run: 1 }, { name: "b", pattern: "[", run: "x", timeout: -1 }], extra: true };\n`,
  });
  const r = cpilot(["check", "--all"], { cwd: root });
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  for (const key of [
    "callbacks[0].name",
    "callbacks[0].run",
    "callbacks[0].timeout",
    "callbacks[1].pattern",
    "callbacks[1].timeout",
    "(top level)",
  ]) {
    expect(r.stderr).toContain(`callbacks.config.ts: ${key}:`);
  }
  expect(r.stderr).not.toMatch(/\n\s+at /);
});

test("Ctrl-C stops every run cpilot started, grandchildren included, and exits 130", async () => {
  const root = tempDir();
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        {
          name: "long",
          pattern: "*.txt",
          run: 'sleep 60 & echo $! > "$CP_PROJECT_ROOT/gc.pid"; wait',
          timeout: 120,
        },
      ],
    }),
    "a.txt": "",
  });
  const child = spawn(cpilotBinary(), ["check", "a.txt"], { cwd: root, stdio: "ignore" });
  expect(
    await waitFor(
      () =>
        existsSync(join(root, "gc.pid")) && readFileSync(join(root, "gc.pid"), "utf8").length > 0,
      30_000,
    ),
  ).toBe(true);
  const grandchild = Number(readFileSync(join(root, "gc.pid"), "utf8"));
  child.kill("SIGINT");
  const code = await new Promise<number | null>((r) => child.on("close", r));
  expect(code).toBe(130);
  expect(await waitFor(() => !processAlive(grandchild), 20_000)).toBe(true);
});

test("a run `cpilot stop` ends is counted as stopped, not passed, and the check ends with it", async () => {
  const root = tempDir("cpilot-e2e-", { git: true });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        // a leftover in the group: once stopped, it waits on the system's init to be reaped
        { name: "slow", pattern: "*.txt", run: "sleep 30 & echo $$ > up; wait", timeout: 60 },
      ],
    }),
    "a.txt": "",
  });
  const child = spawn(cpilotBinary(), ["check", "a.txt"], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr?.on("data", (d) => {
    err += d;
  });
  // The script can be up before a busy host has written its process group down for `ps`.
  let runId: string | undefined;
  const listed = () => {
    const ps = cpilot(["ps", "--json"], { cwd: root });
    runId = (JSON.parse(ps.stdout).running as { runId: string }[])[0]?.runId;
    return runId !== undefined;
  };
  expect(await waitFor(() => existsSync(join(root, "up")) && listed(), 30_000)).toBe(true);
  expect(cpilot(["stop", runId as string], { cwd: root }).code).toBe(0);
  const code = await new Promise<number | null>((r) => child.on("close", r));
  // a blocking check that did not finish did not pass
  expect(code).toBe(1);
  expect(err).toContain("stopped: `cpilot stop`");
  expect(err).toMatch(/cpilot: 0 runs passed, 1 stopped on 1 file in [\d.]+ m?s/);
});

test("list, disable, enable: toggles live in .cpilot/, not in the config", () => {
  const root = project();
  const before = readFileSync(join(root, "callbacks.config.ts"), "utf8");
  expect(cpilot(["disable", "lint"], { cwd: root }).code).toBe(0);
  const listed = JSON.parse(cpilot(["list", "--json"], { cwd: root }).stdout);
  expect(listed.callbacks.find((c: { name: string }) => c.name === "lint").enabled).toBe(false);
  const planned = JSON.parse(
    cpilot(["check", "--all", "--dry-run", "--json"], { cwd: root }).stdout,
  );
  expect(planned.runs.map((x: { callback: string }) => x.callback)).not.toContain("lint");
  expect(cpilot(["disable", "--all"], { cwd: root }).code).toBe(0);
  expect(
    JSON.parse(cpilot(["check", "--all", "--dry-run", "--json"], { cwd: root }).stdout).runs,
  ).toEqual([]);
  expect(cpilot(["enable", "--all"], { cwd: root }).code).toBe(0);
  expect(cpilot(["enable", "lint"], { cwd: root }).code).toBe(0);
  expect(
    JSON.parse(cpilot(["check", "--all", "--dry-run", "--json"], { cwd: root }).stdout).runs,
  ).toHaveLength(3);
  expect(readFileSync(join(root, "callbacks.config.ts"), "utf8")).toBe(before);
  const table = cpilot(["list"], { cwd: root }).stdout;
  expect(table.split("\n")[0]).toMatch(/^name\s+description\s+pattern\s+blocking\s+enabled$/);
  expect(table).toContain("docs/**/*.md !docs/draft/**");
  expect(cpilot(["disable", "nope"], { cwd: root }).code).toBe(2);
});

test("logs lists recent runs and prints one run's full output", () => {
  const root = tempDir();
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "talk", pattern: "*.txt", run: "seq 1 500; exit 2", timeout: 5 }],
    }),
    "a.txt": "",
  });
  const out = JSON.parse(cpilot(["check", "a.txt", "--json"], { cwd: root }).stdout);
  const id = out.runs[0].id;
  expect(out.runs[0].tail.at(-1)).toBe("500");
  const list = cpilot(["logs"], { cwd: root });
  expect(list.stdout).toContain(id);
  const one = cpilot(["logs", id], { cwd: root });
  expect(one.stdout.split("\n").length).toBe(501);
  expect(one.stderr).toContain("talk · failed · exit 2");
  expect(cpilot(["logs", "nope-123"], { cwd: root }).code).toBe(2);
});

test("init detects toolchains and writes a config that loads", () => {
  const root = tempDir("cpilot-init-", { git: true });
  writeFiles(root, {
    "tsconfig.json": "{}",
    "Cargo.toml": "[package]\n",
    "package.json": '{"devDependencies":{"@biomejs/biome":"2"}}',
  });
  const r = cpilot(["init", "--yes"], { cwd: root });
  expect(r.code).toBe(0);
  expect(readFileSync(join(root, ".gitignore"), "utf8")).toContain(".cpilot/");
  const listed = JSON.parse(cpilot(["list", "--json"], { cwd: root }).stdout);
  // biome only in the dependencies is no evidence: nothing runs it, no biome.json
  expect(listed.callbacks.map((c: { name: string }) => c.name)).toEqual([
    "rustfmt",
    "clippy",
    "cargo-test",
  ]);
  expect(cpilot(["init", "--yes"], { cwd: root }).code).toBe(2);
  mkdirSync(join(root, "empty"));
});

test("usage errors exit 2", () => {
  const root = project();
  expect(cpilot(["check", "--staged", "--all"], { cwd: root }).code).toBe(2);
  expect(cpilot(["check", "--bogus"], { cwd: root }).code).toBe(2);
  expect(cpilot(["frobnicate"], { cwd: root }).code).toBe(2);
  expect(cpilot(["check", "/etc/passwd"], { cwd: root }).code).toBe(2);
});

test("--json reports a formatter's rewrite, and with resync: tree a generator's new file too", () => {
  const root = tempDir("cpilot-resync-", { git: true });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      resync: "tree",
      callbacks: [
        { name: "fmt", pattern: "*.py", run: `sed -i 's/x=1/x = 1/' "$@"`, timeout: 5 },
        { name: "gen", pattern: "*.py", run: "echo built > out.txt", timeout: 5 },
      ],
    }),
    "a.py": "x=1\n",
  });
  const out = JSON.parse(cpilot(["check", "a.py", "--json"], { cwd: root }).stdout);
  expect(out.ok).toBe(true);
  const byPath = Object.fromEntries(
    out.resyncs.map((r: { path: string; diff: string }) => [r.path, r.diff]),
  );
  expect(byPath["a.py"]).toContain("-x=1\n+x = 1");
  expect(byPath["out.txt"]).toContain("+built");
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "gen", pattern: "*.py", run: "echo again > out2.txt", timeout: 5 }],
    }),
  });
  const batchOnly = JSON.parse(cpilot(["check", "a.py", "--json"], { cwd: root }).stdout);
  expect(batchOnly.resyncs).toEqual([]);
});

test("cpilot check tells what is new since HEAD first, then the rest, marked", () => {
  const root = tempDir("cpilot-e2e-", { git: true });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        {
          name: "crate",
          pattern: "*.rs",
          timeout: 20,
          run: "echo 'a.rs:1:1: error: mine'; echo 'b.rs:2:1: error: old lint'; exit 1",
        },
      ],
    }),
    "a.rs": "",
    "b.rs": "",
  });
  const r = cpilot(["check", "a.rs"], { cwd: root });
  expect(r.code).toBe(1);
  // No commit yet: the checked file's are new; another file's cannot be placed.
  expect(r.stderr).toContain(
    "new since HEAD:\n    a.rs:1:1 error: mine\n    already there in HEAD, or not known:\n    b.rs:2:1 error: old lint",
  );
});

test("an output cut to its last lines keeps the error line it began with (rustup's, above a long backtrace)", () => {
  const root = tempDir("cpilot-e2e-", { git: true });
  const backtrace = Array.from({ length: 30 }, (_, i) => `  ${i}: frame::number_${i}`).join("\n");
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        {
          name: "fmt",
          pattern: "*.rs",
          timeout: 20,
          run: `printf '%s\\n' 'error: rustup could not choose a version of rustfmt to run' 'help: run rustup default stable' '' 'Stack backtrace:' '${backtrace.replaceAll("\n", "' '")}'; exit 1`,
        },
      ],
    }),
    "a.rs": "",
  });
  const r = cpilot(["check", "a.rs"], { cwd: root });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    "    error: rustup could not choose a version of rustfmt to run\n    … (earlier output is in the log)\n",
  );
  expect(r.stderr).toContain("  29: frame::number_29");
});

test("cpilot check with nothing changed says so, and how to check every file", () => {
  const root = project();
  const r = cpilot(["check"], { cwd: root });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe(
    "cpilot: nothing changed since HEAD, nothing to check (`cpilot check --all` checks every file)\n",
  );
  const ref = cpilot(["check", "--changed", "HEAD"], { cwd: root });
  expect(ref.stderr).toContain("cpilot: nothing changed since HEAD, nothing to check");
});
