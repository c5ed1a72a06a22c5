import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CallbackDef } from "../../src/config/types.ts";
import { createEngine } from "../../src/engine/engine.ts";
import { plainCommand } from "../../src/engine/script-input.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

/**
 * A bash string that is one plain command (words and `"$@"`) starts without bash, with
 * the argv bash would have given it; anything else (and a command that cannot start)
 * still goes through bash.
 */
async function runOne(
  root: string,
  callback: Omit<CallbackDef, "name" | "timeout">,
  files: string[],
) {
  const engine = createEngine({
    root,
    config: { callbacks: [{ name: "c", timeout: 20, ...callback } as CallbackDef] },
  });
  return engine.run({
    root,
    files: files.map((path) => ({ path, kind: "modified" as const })),
    origin: { surface: "api" },
  });
}

/** A program that records its argv (NUL-separated), its folder, PWD and SHLVL. */
function recorder(root: string): string {
  const bin = join(root, "bin");
  mkdirSync(bin);
  const path = join(bin, "record-args");
  writeFileSync(
    path,
    `#!/usr/bin/env bash\nprintf '%s\\0' "$@" > "$CP_PROJECT_ROOT/argv"\nprintf '%s\\n' "$(pwd -P)" "$PWD" "$SHLVL" > "$CP_PROJECT_ROOT/where"\n`,
    { mode: 0o755 },
  );
  return path;
}

test("a plain command gets the argv and PWD bash would have given it", async () => {
  const root = tempDir();
  writeFiles(root, { "a.ts": "", "-b.ts": "", "sub/keep": "" });
  const rec = recorder(root);
  const before = process.env.SHLVL;
  process.env.SHLVL = "5";
  try {
    const outcome = await runOne(
      root,
      { pattern: "*.ts", run: `${rec} --fix "$@" --last`, cwd: "sub" },
      ["a.ts", "-b.ts"],
    );
    expect(outcome.runs[0]?.status).toBe("passed");
  } finally {
    if (before === undefined) delete process.env.SHLVL;
    else process.env.SHLVL = before;
  }
  // named from the folder it runs in (cwd "sub"), as the tool there reads them
  expect(readFileSync(join(root, "argv"), "utf8").split("\0")).toEqual([
    "--fix",
    "../a.ts",
    "../-b.ts",
    "--last",
    "",
  ]);
  const [real, pwd, shlvl] = readFileSync(join(root, "where"), "utf8").split("\n");
  expect(pwd).toBe(real);
  expect(shlvl).toBe("6"); // as through bash, which gives the level back before it execs
});

test("no bash in between: the command sees the environment as cpilot had it", async () => {
  const root = tempDir();
  writeFiles(root, { "a.ts": "" });
  const before = process.env._;
  process.env._ = "set-by-cpilot's-parent";
  let log: string;
  try {
    const outcome = await runOne(root, { pattern: "*.ts", run: "env" }, ["a.ts"]);
    log = readFileSync(outcome.runs[0]?.logPath ?? "", "utf8");
  } finally {
    if (before === undefined) delete process.env._;
    else process.env._ = before;
  }
  // bash sets `_` to the path of the command it starts
  expect(log.split("\n")).toContain("_=set-by-cpilot's-parent");
});

test("a plain command that does not exist fails as bash says it: exit 127", async () => {
  const root = tempDir();
  writeFiles(root, { "a.ts": "" });
  const outcome = await runOne(root, { pattern: "*.ts", run: "no-such-tool-xyz --check" }, [
    "a.ts",
  ]);
  expect(outcome.runs[0]?.status).toBe("failed");
  expect(outcome.runs[0]?.exitCode).toBe(127);
  expect(outcome.runs[0]?.tail.join("\n")).toContain("no-such-tool-xyz");
});

test('only plain words and "$@" make a plain command', () => {
  expect(plainCommand('eslint --fix "$@"')).toEqual(["eslint", "--fix", '"$@"']);
  expect(plainCommand("  cargo   check  ")).toEqual(["cargo", "check"]);
  for (const run of [
    "echo hi", // bash's own echo
    "true",
    "FOO=1 tool",
    "tool $HOME",
    "tool *.ts",
    "tool 'quoted'",
    "tool > out",
    "a && b",
    "tool ~/x",
    "tool\nother",
    '"$@"',
    "tool $@",
    "tool {a,b}",
  ]) {
    expect(plainCommand(run)).toBeNull();
  }
});

test("a callback with its own cwd (a package) gets the names from there", async () => {
  const root = tempDir();
  writeFiles(root, { "pkgs/web/src/a.ts": "", "pkgs/web/-b.ts": "", "top.ts": "" });
  const rec = recorder(root);
  const outcome = await runOne(root, { pattern: "*.ts", run: [rec, "{files}"], cwd: "pkgs/web" }, [
    "pkgs/web/src/a.ts",
    "pkgs/web/-b.ts",
    "top.ts",
  ]);
  expect(outcome.runs[0]?.status).toBe("passed");
  expect(readFileSync(join(root, "argv"), "utf8").split("\0")).toEqual([
    "src/a.ts",
    "./-b.ts",
    "../../top.ts",
    "",
  ]);
});
