/**
 * Inputs of a whole `check --all` that are not the project's tracked content: the config and
 * what it loads, cpilot's own state files, the programs the callbacks start, ignored tool
 * configs, the command line and the environment. Each changed after a check --all that
 * replayed every result and passed; the next one must give a real run's answer.
 */
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { chmodSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import {
  keepingTimes,
  outside,
  replayedProject,
  rewriteKeepingStat,
  runsIn,
  verdicts,
} from "./_whole-replay.ts";

const words = { name: "words", pattern: "*.txt", run: '! grep -l BAD "$@"', timeout: 10 };
const json = (callbacks: unknown[]) => JSON.stringify({ callbacks });

/** For projects where one run is never replayed: the first three runs need only pass. */
const LOOSE = { everyRunReplayed: false };

/** A config that is not plain data (it imports from outside, reads env or files): never replayed whole. */
const NOT_WHOLE = { wholeReplayed: false };

describe("the config and what it loads", () => {
  test("a config git ignores, rewritten keeping its size and mtime", () => {
    const p = replayedProject(
      { "callbacks.config.json": json([{ ...words, run: "true " }]), "a.txt": "x\n" },
      {
        beforeCommit: (q) => writeFileSync(q.path(".git/info/exclude"), "callbacks.config.json\n"),
      },
    );
    rewriteKeepingStat(p.path("callbacks.config.json"), json([{ ...words, run: "false" }]));
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("a module the TS config imports, outside the project, rewritten keeping its stat", () => {
    const shared = join(outside(), "checks.ts");
    writeFileSync(shared, 'export const command = "true ";\n');
    const p = replayedProject(
      {
        "callbacks.config.ts": `import { command } from ${JSON.stringify(shared)};
export default { callbacks: [{ name: "words", pattern: "*.txt", run: command, timeout: 10 }] };
`,
        "a.txt": "x\n",
      },
      NOT_WHOLE,
    );
    rewriteKeepingStat(shared, 'export const command = "false";\n');
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("an ignored module the TS config imports, rewritten keeping its stat", () => {
    const p = replayedProject({
      ".gitignore": "local/\n",
      "callbacks.config.ts": `import { command } from "./local/checks.ts";
export default { callbacks: [{ name: "words", pattern: "*.txt", run: command, timeout: 10 }] };
`,
      "local/checks.ts": 'export const command = "true ";\n',
      "a.txt": "x\n",
    });
    rewriteKeepingStat(p.path("local/checks.ts"), 'export const command = "false";\n');
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("a TS config that reads the environment when it loads", () => {
    const p = replayedProject(
      {
        "callbacks.config.ts": `const strict = process.env.WORDS_STRICT === "1";
export default { callbacks: [{ name: "words", pattern: "*.txt", run: strict ? "false" : "true", timeout: 10 }] };
`,
        "a.txt": "x\n",
      },
      NOT_WHOLE,
    );
    expect(p.check(undefined, { env: { WORDS_STRICT: "1" } }).code).toBe(1);
  }, 60_000);

  test("a TS config that reads an ignored file when it loads", () => {
    const p = replayedProject(
      {
        ".gitignore": "mode\n",
        "callbacks.config.ts": `import { readFileSync } from "node:fs";
const strict = readFileSync(new URL("./mode", import.meta.url), "utf8").trim() === "strict";
export default { callbacks: [{ name: "words", pattern: "*.txt", run: strict ? "false" : "true", timeout: 10 }] };
`,
        mode: "loose\n",
        "a.txt": "x\n",
      },
      NOT_WHOLE,
    );
    writeFileSync(p.path("mode"), "strict\n");
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("another config named with --config", () => {
    const p = replayedProject({
      "callbacks.config.json": json([words]),
      "strict.config.json": json([{ ...words, run: "false" }]),
      "a.txt": "x\n",
    });
    expect(p.check(["check", "--all", "--config", "strict.config.json"]).code).toBe(1);
  }, 60_000);

  test("callbacks.managed.json, ignored, rewritten keeping its stat", () => {
    const p = replayedProject(
      {
        "callbacks.config.json": json([words]),
        "callbacks.managed.json": json([{ ...words, name: "extra", run: "true " }]),
        "a.txt": "x\n",
      },
      {
        beforeCommit: (q) => writeFileSync(q.path(".git/info/exclude"), "callbacks.managed.json\n"),
      },
    );
    rewriteKeepingStat(
      p.path("callbacks.managed.json"),
      json([{ ...words, name: "extra", run: "false" }]),
    );
    const r = p.check();
    expect(r.code).toBe(1);
    expect(r.text).toContain("extra");
  }, 60_000);
});

describe("callbacks paused and resumed", () => {
  const files = {
    "callbacks.config.json": json([words, { ...words, name: "strict", run: "false" }]),
    "a.txt": "x\n",
  };

  test("cpilot enable NAME: a paused failing callback runs again", () => {
    const p = replayedProject(files, {
      beforeCommit: (q) => expect(q.check(["disable", "strict"]).code).toBe(0),
    });
    expect(p.check(["enable", "strict"]).code).toBe(0);
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("cpilot disable NAME: the paused callback is no longer shown", () => {
    const p = replayedProject({
      ...files,
      "callbacks.config.json": json([words, { ...words, name: "other" }]),
    });
    expect(p.check(["disable", "other"]).code).toBe(0);
    const r = p.check();
    expect(r.code).toBe(0);
    expect(verdicts(r.text)).toEqual(["✓ words (a.txt)"]);
  }, 60_000);

  test("the toggles file rewritten keeping its size and mtime", () => {
    const p = replayedProject(files, {
      beforeCommit: (q) => expect(q.check(["disable", "strict"]).code).toBe(0),
    });
    const state = p.check(["list"]);
    expect(state.code).toBe(0);
    const togglesFile = p.path(".cpilot/state.json");
    const text = readFileSync(togglesFile, "utf8") as string;
    expect(text).toContain('"strict"');
    rewriteKeepingStat(togglesFile, text.replace('"strict"', '"strixt"'));
    expect(p.check().code).toBe(1);
  }, 60_000);
});

describe("the programs the callbacks start", () => {
  /** Two folders for PATH, each able to hold a `wordcheck` program. */
  function programs() {
    const first = outside();
    const second = outside();
    const put = (dir: string, code: 0 | 1) => {
      const path = join(dir, "wordcheck");
      writeFileSync(path, `#!/bin/sh\nexit ${code}\n`);
      chmodSync(path, 0o755);
      return path;
    };
    return { first, second, put };
  }
  const files = {
    "callbacks.config.json": json([{ ...words, run: 'wordcheck "$@"' }]),
    "a.txt": "x\n",
  };
  const PATH = (...dirs: string[]) => [...dirs, "/usr/local/bin:/usr/bin:/bin"].join(":");

  test("PATH pointing at another program of the same name", () => {
    const { first, second, put } = programs();
    put(first, 0);
    put(second, 1);
    const p = replayedProject(files, { env: { PATH: PATH(first) } });
    expect(p.check(undefined, { env: { PATH: PATH(second) } }).code).toBe(1);
  }, 60_000);

  test("a program of the same name appearing earlier on PATH", () => {
    const { first, second, put } = programs();
    put(second, 0);
    const p = replayedProject(files, { env: { PATH: PATH(first, second) } });
    put(first, 1);
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("the program replaced in place, keeping its size and mtime", () => {
    const { first, put } = programs();
    const program = put(first, 0);
    const p = replayedProject(files, { env: { PATH: PATH(first) } });
    rewriteKeepingStat(program, "#!/bin/sh\nexit 1\n");
    expect(p.check().code).toBe(1);
  }, 60_000);

  // bash runs the first executable file of that name: the key stamps that one
  test("a file of the same name that cannot run, earlier on PATH, hides the program", () => {
    const { first, second, put } = programs();
    const shadow = put(first, 0);
    chmodSync(shadow, 0o644);
    const program = put(second, 0);
    const p = replayedProject(files, { env: { PATH: PATH(first, second) } });
    rewriteKeepingStat(program, "#!/bin/sh\nexit 1\n");
    expect(p.check().code).toBe(1);
  }, 60_000);

  // a relative folder on PATH is found from the callback's folder (the root), as bash finds
  // it, not from the folder cpilot was started in
  test("a program in a relative folder on PATH, checked from a subfolder, replaced in place", () => {
    const p = replayedProject(
      {
        ...files,
        // ignored, as a project's own tool folder often is: git says nothing of it
        ".gitignore": "tools/\n",
        "tools/wordcheck": "#!/bin/sh\nexit 0\n",
        "sub/b.md": "b\n",
      },
      {
        env: { PATH: PATH("tools") },
        cwd: "sub",
        beforeCommit: (q) => chmodSync(q.path("tools/wordcheck"), 0o755),
      },
    );
    rewriteKeepingStat(p.path("tools/wordcheck"), "#!/bin/sh\nexit 1\n");
    expect(p.check(undefined, { cwd: "sub" }).code).toBe(1);
  }, 60_000);

  test("the program a symlink on PATH leads to, retargeted", () => {
    const { first, second, put } = programs();
    const pass = put(second, 0);
    const fail = join(second, "wordfail");
    writeFileSync(fail, "#!/bin/sh\nexit 1\n");
    chmodSync(fail, 0o755);
    const link = join(first, "wordcheck");
    symlinkSync(pass, link);
    const p = replayedProject(files, { env: { PATH: PATH(first) } });
    keepingTimes(link, () => {
      unlinkSync(link);
      symlinkSync(fail, link);
    });
    expect(p.check().code).toBe(1);
  }, 60_000);
});

describe("tool configs git ignores", () => {
  test("an ignored package-lock.json at the root a whole-project callback reads", () => {
    const p = replayedProject({
      ".gitignore": "package-lock.json\n",
      "callbacks.config.json": json([{ ...words, run: "! grep -q BAD package-lock.json" }]),
      "package-lock.json": '{"v":"ok1"}\n',
      "a.txt": "x\n",
    });
    rewriteKeepingStat(p.path("package-lock.json"), '{"v":"BAD"}\n');
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("an ignored package-lock.json in a package, read by a callback given the package's files", () => {
    const p = replayedProject({
      ".gitignore": "package-lock.json\n",
      "callbacks.config.json": json([
        { ...words, pattern: "pkg/*.txt", run: '! grep -q BAD pkg/package-lock.json "$@"' },
      ]),
      "pkg/package.json": "{}\n",
      "pkg/package-lock.json": '{"v":"ok1"}\n',
      "pkg/a.txt": "x\n",
    });
    rewriteKeepingStat(p.path("pkg/package-lock.json"), '{"v":"BAD"}\n');
    expect(p.check().code).toBe(1);
  }, 60_000);
});

describe("programs and tool configs in ignored folders", () => {
  test("a tool under node_modules/.bin upgraded in place, keeping its size and mtime", () => {
    const p = replayedProject(
      {
        ".gitignore": "node_modules/\n",
        "callbacks.config.json": json([{ ...words, run: 'node_modules/.bin/wordcheck "$@"' }]),
        "node_modules/.bin/wordcheck": "#!/bin/sh\nexit 0\n",
        "a.txt": "x\n",
      },
      { beforeCommit: (q) => chmodSync(q.path("node_modules/.bin/wordcheck"), 0o755) },
    );
    rewriteKeepingStat(p.path("node_modules/.bin/wordcheck"), "#!/bin/sh\nexit 1\n");
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("an ignored tool config appearing in the package of the files a callback is given", () => {
    const p = replayedProject({
      ".gitignore": "ruff.toml\n",
      "callbacks.config.json": json([
        { ...words, pattern: "pkg/*.txt", run: '! grep -qs BAD pkg/ruff.toml "$@"' },
      ]),
      "pkg/a.txt": "x\n",
    });
    keepingTimes(p.path("pkg"), () => writeFileSync(p.path("pkg/ruff.toml"), "BAD\n"));
    expect(p.check().code).toBe(1);
  }, 60_000);
});

describe("runs that are never replayed", () => {
  test("cache: false runs on every check --all", () => {
    const log = join(outside(), "log");
    const files = {
      "callbacks.config.json": json([
        words,
        { ...words, name: "clock", run: `echo ran >> ${log}`, cache: false },
      ]),
      "a.txt": "x\n",
    };
    // every run of the first three replayed except the uncached one: never a whole replay
    const p = replayedProject(files, LOOSE);
    const before = runsIn(log);
    expect(p.check().code).toBe(0);
    expect(runsIn(log)).toBe(before + 1);
  }, 60_000);

  test("a function callback runs on every check --all", () => {
    const log = join(outside(), "log");
    const p = replayedProject(
      {
        "callbacks.config.ts": `import { appendFileSync } from "node:fs";
export default { callbacks: [
  { name: "words", pattern: "*.txt", run: '! grep -l BAD "$@"', timeout: 10 },
  { name: "fn", pattern: "*.txt", run: () => { appendFileSync(${JSON.stringify(log)}, "ran\\n"); }, timeout: 10 },
] };
`,
        "a.txt": "x\n",
      },
      LOOSE,
    );
    const before = runsIn(log);
    expect(p.check().code).toBe(0);
    expect(runsIn(log)).toBe(before + 1);
  }, 60_000);

  test("a fixer of the whole project runs on every check --all", () => {
    const log = join(outside(), "log");
    const p = replayedProject(
      {
        "callbacks.config.json": json([
          words,
          { ...words, name: "fmt", fixes: true, run: `echo ran >> ${log}` },
        ]),
        "a.txt": "x\n",
      },
      LOOSE,
    );
    const before = runsIn(log);
    expect(p.check().code).toBe(0);
    expect(runsIn(log)).toBe(before + 1);
  }, 60_000);

  test("CPILOT_CACHE=0 runs every callback", () => {
    const log = join(outside(), "log");
    const p = replayedProject({
      "callbacks.config.json": json([{ ...words, run: `echo ran >> ${log}; true "$@"` }]),
      "a.txt": "x\n",
    });
    const before = runsIn(log);
    expect(p.check(undefined, { env: { CPILOT_CACHE: "0" } }).code).toBe(0);
    expect(runsIn(log)).toBe(before + 1);
  }, 60_000);

  test("cpilot cache clear: the next check --all runs every callback", () => {
    const log = join(outside(), "log");
    const p = replayedProject({
      "callbacks.config.json": json([{ ...words, run: `echo ran >> ${log}; true "$@"` }]),
      "a.txt": "x\n",
    });
    const before = runsIn(log);
    expect(p.check(["cache", "clear"]).code).toBe(0);
    const r = p.check();
    expect(r.code).toBe(0);
    expect(runsIn(log)).toBe(before + 1);
    expect(r.text).not.toContain("from cache");
  }, 60_000);

  test("a fixer that rewrites a file the agent put back to an old stat runs, and CI fails on it", () => {
    const log = join(outside(), "log");
    const p = replayedProject({
      "callbacks.config.json": json([
        words,
        { ...words, name: "fmt", fixes: true, run: `echo ran >> ${log}; sed -i s/ugly/nice/ "$@"` },
      ]),
      "a.txt": "nice\n",
    });
    const before = runsIn(log);
    rewriteKeepingStat(p.path("a.txt"), "ugly\n");
    expect(p.check(undefined, { env: { CI: "true" } }).code).toBe(1);
    expect(runsIn(log)).toBe(before + 1);
    expect(readFileSync(p.path("a.txt"), "utf8")).toBe("nice\n");
  }, 60_000);
});

describe("the command line and the environment", () => {
  const files = {
    "callbacks.config.json": json([words, { ...words, name: "more" }]),
    "a.txt": "x\n",
  };

  // a checker's own variable (go's build tags here) makes another result: kept apart, whole
  // or per callback (check PATHS is never replayed whole)
  test("a variable the checker reads (GOFLAGS) set differently", () => {
    const tagged = {
      "callbacks.config.json": json([
        { name: "tags", pattern: "*.txt", run: 'test "$GOFLAGS" != -tags=broken', timeout: 10 },
      ]),
      "a.txt": "x\n",
    };
    const p = replayedProject(tagged);
    const env = { GOFLAGS: "-tags=broken" };
    expect(p.check(undefined, { env }).code).toBe(1);
    expect(p.check(["check", "a.txt"], { env }).code).toBe(1);
    expect(p.check(["check", "a.txt"]).code).toBe(0);
  }, 60_000);

  test("--json prints JSON", () => {
    const p = replayedProject(files);
    const r = p.check(["check", "--all", "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.ok).toBe(true);
    expect(out.runs.length).toBe(2);
  }, 60_000);

  test("--format sarif prints SARIF", () => {
    const p = replayedProject(files);
    const r = p.check(["check", "--all", "--format", "sarif"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).version).toBe("2.1.0");
  }, 60_000);

  test("--only and --skip change which callbacks run", () => {
    const p = replayedProject(files);
    expect(verdicts(p.check(["check", "--all", "--only", "more"]).text)).toEqual([
      "✓ more (a.txt)",
    ]);
    expect(verdicts(p.check(["check", "--all", "--skip", "more"]).text)).toEqual([
      "✓ words (a.txt)",
    ]);
  }, 60_000);

  test("--dry-run plans and runs nothing", () => {
    const p = replayedProject(files);
    const r = p.check(["check", "--all", "--dry-run"]);
    expect(r.code).toBe(0);
    expect(r.text).toContain("2 runs planned");
    expect(r.text).not.toContain("passed");
  }, 60_000);

  test("--shard: each part says which and runs its share", () => {
    const p = replayedProject({
      ...files,
      "callbacks.config.json": json([words, { ...words, name: "more", pattern: "*.md" }]),
      "b.md": "x\n",
    });
    const one = p.check(["check", "--all", "--shard", "1/2"]);
    const two = p.check(["check", "--all", "--shard", "2/2"]);
    expect(one.text).toContain("shard 1/2");
    expect(two.text).toContain("shard 2/2");
    expect([...verdicts(one.text), ...verdicts(two.text)].sort()).toEqual([
      "✓ more (b.md)",
      "✓ words (a.txt)",
    ]);
  }, 60_000);

  test("check PATHS after check --all: only the callbacks of those files", () => {
    const p = replayedProject({
      ...files,
      "callbacks.config.json": json([words, { ...words, name: "more", pattern: "*.md" }]),
      "b.md": "x\n",
    });
    expect(verdicts(p.check(["check", "b.md"]).text)).toEqual(["✓ more (b.md)"]);
  }, 60_000);

  test("a terminal after plain runs, and plain after a terminal: as a real run prints", () => {
    const p = replayedProject(files);
    const tty = onTerminal(p.dir);
    expect(tty).toContain("\u001b[32m");
    expect(tty).toContain("words");
    expect(p.check().text).not.toContain("\u001b[");
  }, 60_000);

  test("FORCE_COLOR after plain runs: the text is coloured", () => {
    const p = replayedProject(files);
    const r = p.check(undefined, { env: { FORCE_COLOR: "1" } });
    expect(r.code).toBe(0);
    expect(r.text).toContain("\u001b[");
  }, 60_000);

  test("plain after coloured runs (FORCE_COLOR, then NO_COLOR): no colour codes", () => {
    const p = replayedProject(files, { env: { FORCE_COLOR: "1" } });
    expect(p.check(undefined, { env: {}, replaceEnv: true }).text).not.toContain("\u001b[");
    expect(
      p.check(undefined, { env: { NO_COLOR: "1", FORCE_COLOR: "1" }, replaceEnv: true }).text,
    ).not.toContain("\u001b[");
  }, 60_000);

  test("GITHUB_ACTIONS=true: a passing run's warnings become annotations", () => {
    const p = replayedProject(
      {
        "callbacks.config.json": json([
          { ...words, run: 'echo "a.txt:1:1: warning: looks odd"; true "$@"', format: "generic" },
        ]),
        "a.txt": "x\n",
      },
      LOOSE,
    );
    const r = p.check(undefined, { env: { GITHUB_ACTIONS: "true" } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("::warning");
  }, 60_000);

  test("from a subfolder the lines name files as a real run does", () => {
    const p = replayedProject({
      "callbacks.config.json": json([words]),
      "a.txt": "x\n",
      "sub/b.md": "x\n",
    });
    const replayed = p.check(undefined, { cwd: "sub" });
    const real = p.check(undefined, { cwd: "sub", env: { CPILOT_CACHE: "0" } });
    expect(replayed.code).toBe(0);
    expect(verdicts(replayed.text)).toEqual(verdicts(real.text));
  }, 60_000);
});

/** `check --all`'s output on a terminal (a pseudo-terminal made by util-linux's `script`). */
function onTerminal(dir: string): string {
  const command = `${cpilotBinary()} check --all`;
  return execFileSync("script", ["-qec", command, "/dev/null"], {
    cwd: dir,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: process.env.HOME ?? "/root",
      ...runtimeEnv(),
    },
    encoding: "utf8",
  });
}
