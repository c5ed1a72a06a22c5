/**
 * A package with its own config judges its files relative to its folder; every path shown is
 * relative to where its reader works: the agent's folder for hook replies, the command's
 * folder for the terminal, where the check started for --json, the repository's top for
 * SARIF and GitHub annotations. The built binary, Claude Code's hook payloads.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLAUDE_ENV, runAsync } from "../agents/claude/_helpers.ts";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

/** Fails on the first changed file holding BAD, naming it as `file:line:1: error: ...` from its own folder. */
const BAD_LINT = {
  name: "lint",
  pattern: "**/*.ts",
  timeout: 30,
  run: 'printf "%s\\n" "$CP_CHANGED_FILES" | while IFS= read -r f; do n=$(grep -n BAD "$f" | head -n 1 | cut -d: -f1); if [ -n "$n" ]; then echo "$f:$n:1: error: BAD found"; exit 1; fi; done',
};

/** A root config that checks nothing, and packages/web with its own lint; src/a.ts clean, committed. */
function monorepo(): string {
  const root = tempDir("cpilot-relpaths-", { git: true });
  writeFiles(root, {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.json": JSON.stringify({ callbacks: [] }),
    "packages/web/callbacks.config.json": JSON.stringify({
      agent: { maxStopBlocks: 2 },
      callbacks: [BAD_LINT],
    }),
    "packages/web/src/a.ts": "export const a = 1;\n",
  });
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", "init"], { cwd: root });
  return root;
}

const BROKEN = "export const a = 1;\nexport const b = 2;\nexport const c = BAD;\n";

/** `cpilot hook claude` with `payload`, the agent working in `cwd`. */
function hook(root: string, cwd: string, payload: Record<string, unknown>): string {
  const r = cpilot(["hook", "claude"], {
    cwd: join(root, cwd),
    input: JSON.stringify({ session_id: "s1", cwd: join(root, cwd), ...payload }),
  });
  expect(r.code).toBe(0);
  return r.stdout;
}

const writeTool = (root: string, file: string) => ({
  hook_event_name: "PostToolUse",
  tool_name: "Write",
  tool_input: { file_path: join(root, file), content: BROKEN },
  tool_response: { type: "update", filePath: join(root, file) },
  tool_use_id: "toolu_1",
});

const bashTool = (command: string) => ({
  hook_event_name: "PostToolUse",
  tool_name: "Bash",
  tool_input: { command, description: "run it" },
  tool_response: { stdout: "", stderr: "", interrupted: false },
  tool_use_id: "toolu_2",
});

test("an agent at the top that writes a package's file with an error is told the path from the top and which config judged it", () => {
  const root = monorepo();
  writeFileSync(join(root, "packages/web/src/a.ts"), BROKEN);
  const reply = hook(root, ".", writeTool(root, "packages/web/src/a.ts"));
  expect(reply).toContain("cpilot: judged by packages/web/callbacks.config.json:");
  expect(reply).toContain("'lint' failed on packages/web/src/a.ts");
  expect(reply).toContain("packages/web/src/a.ts:3:1 error: BAD found");
  expect(reply).not.toContain(" src/a.ts");
});

test("an agent at the top that changes a package's file through its shell: the files, the error and the held stop name it from the top", () => {
  const root = monorepo();
  hook(root, ".", { hook_event_name: "UserPromptSubmit", prompt: "go" });
  writeFileSync(join(root, "packages/web/src/a.ts"), BROKEN);
  const reply = hook(root, ".", bashTool("sed -i 's/c = 1/c = BAD/' packages/web/src/a.ts"));
  expect(reply).toContain("files your command changed: packages/web/src/a.ts");
  expect(reply).toContain("cpilot: in packages/web/, judged by its own config:");
  expect(reply).toContain("packages/web/src/a.ts:3:1 error: BAD found");
  expect(reply).not.toContain(" src/a.ts");
  const stop = hook(root, ".", { hook_event_name: "Stop", stop_hook_active: false });
  expect(stop).toContain('"decision":"block"');
  expect(stop).toContain("packages/web/src/a.ts:3:1 error: BAD found");
  expect(stop).not.toContain(" src/a.ts");
});

test("an agent working in the package is told paths from the package; one in packages/ from there", () => {
  const root = monorepo();
  writeFileSync(join(root, "packages/web/src/a.ts"), BROKEN);
  const inside = hook(root, "packages/web", writeTool(root, "packages/web/src/a.ts"));
  expect(inside).toContain("'lint' failed on src/a.ts");
  expect(inside).toContain("src/a.ts:3:1 error: BAD found");
  expect(inside).not.toContain("packages/web/");
  expect(inside).not.toContain("judged by");
  const between = hook(root, "packages", writeTool(root, "packages/web/src/a.ts"));
  expect(between).toContain("cpilot: judged by web/callbacks.config.json:");
  expect(between).toContain("web/src/a.ts:3:1 error: BAD found");
  expect(between).not.toContain("packages/web/");
});

test("check --all at the top names the package's file from the top; --format github and SARIF from the repository's top, wherever started", () => {
  const root = monorepo();
  writeFileSync(join(root, "packages/web/src/a.ts"), BROKEN);
  const env = { CI: "", GITHUB_ACTIONS: "", GITHUB_WORKSPACE: "" };
  const check = (cwd: string, ...args: string[]) =>
    cpilot(["check", "--all", ...args], { cwd: join(root, cwd), env });

  const top = check(".");
  expect(top.code).toBe(1);
  expect(top.stderr).toContain("cpilot: packages/web/ with its own config");
  expect(top.stderr).toContain("packages/web/src/a.ts:3:1 error: BAD found");
  expect(top.stderr).not.toContain(" src/a.ts");

  const inside = check("packages/web");
  expect(inside.code).toBe(1);
  expect(inside.stderr).toContain("    src/a.ts:3:1 error: BAD found");
  expect(inside.stderr).not.toContain("packages/web/src");

  for (const cwd of [".", "packages/web"]) {
    const github = check(cwd, "--format", "github");
    expect(github.stdout).toContain("::error file=packages/web/src/a.ts,line=3,col=1,");

    const sarif = JSON.parse(check(cwd, "--format", "sarif").stdout) as {
      runs: {
        originalUriBaseIds: { "%SRCROOT%": { uri: string } };
        results: { locations: { physicalLocation: { artifactLocation: unknown } }[] }[];
      }[];
    };
    const run = sarif.runs.find((r) => r.results.length > 0);
    expect(run?.originalUriBaseIds["%SRCROOT%"].uri).toBe(`file://${root}/`);
    expect(run?.results[0]?.locations[0]?.physicalLocation.artifactLocation).toEqual({
      uri: "packages/web/src/a.ts",
      uriBaseId: "%SRCROOT%",
    });
  }

  const json = JSON.parse(check(".", "--json").stdout) as {
    runs: { config: string; files: string[]; diagnostics: { file: string }[] }[];
  };
  expect(json.runs.map((r) => [r.config, r.files, r.diagnostics.map((d) => d.file)])).toEqual([
    ["packages/web/callbacks.config.json", ["packages/web/src/a.ts"], ["packages/web/src/a.ts"]],
  ]);
});

test("cpilot logs at the top lists a package's runs with the top's paths, and shows the log every reply points to", () => {
  const root = monorepo();
  writeFileSync(join(root, "packages/web/src/a.ts"), BROKEN);
  const reply = hook(root, ".", writeTool(root, "packages/web/src/a.ts"));
  const id = /cpilot logs (\S+?)"/.exec(reply)?.[1] ?? "";
  expect(id).not.toBe("");
  const list = cpilot(["logs"], { cwd: root });
  expect(list.code).toBe(0);
  expect(list.stdout).toContain(`${id}  lint`);
  expect(list.stdout).toContain("packages/web/src/a.ts");
  const log = cpilot(["logs", id], { cwd: root });
  expect(log.code).toBe(0);
  expect(log.stdout).toContain("src/a.ts:3:1: error: BAD found");
  // and from the package, its own paths
  const inside = cpilot(["logs"], { cwd: join(root, "packages/web") }).stdout;
  expect(inside).toContain(id);
  expect(inside).toContain(" src/a.ts");
  expect(inside).not.toContain("packages/web/");
});

test("a held stop whose package config no longer loads names the failed file from the agent's folder", () => {
  const root = monorepo();
  writeFileSync(join(root, "packages/web/src/a.ts"), BROKEN);
  hook(root, ".", writeTool(root, "packages/web/src/a.ts"));
  writeFileSync(join(root, "packages/web/callbacks.config.json"), "{ not json");
  const stop = hook(root, ".", { hook_event_name: "Stop", stop_hook_active: false });
  expect(stop).toContain("'lint' failed on packages/web/src/a.ts and could not be re-run");
});

test("what was there before the agent's edit in a package's file is listed with the path from the agent's folder", () => {
  const root = monorepo();
  writeFileSync(join(root, "packages/web/src/a.ts"), "export const old = BAD;\n");
  execFileSync("git", ["commit", "-qam", "old error"], { cwd: root });
  // the check's record of the committed content, which "already there" is judged against
  expect(cpilot(["check", "--all"], { cwd: root, env: { CI: "" } }).code).toBe(1);
  writeFileSync(
    join(root, "packages/web/src/a.ts"),
    "export const old = BAD;\nexport const b = 2;\n",
  );
  const reply = hook(root, ".", writeTool(root, "packages/web/src/a.ts"));
  expect(reply).toContain("its 1 diagnostic was already there before your edit:");
  expect(reply).toContain("packages/web/src/a.ts:1:1 error: BAD found");
  expect(reply).not.toContain(" src/a.ts");
});

test("a package's background result reaches the agent at the top, named from there", () => {
  const root = monorepo();
  writeFiles(root, {
    "packages/web/callbacks.config.json": JSON.stringify({
      callbacks: [{ ...BAD_LINT, name: "slow-lint", blocking: false }],
    }),
  });
  execFileSync("git", ["commit", "-qam", "background lint"], { cwd: root });
  writeFileSync(join(root, "packages/web/src/a.ts"), BROKEN);
  const reply = hook(root, ".", writeTool(root, "packages/web/src/a.ts"));
  expect(reply).toContain("'slow-lint' started in background on packages/web/src/a.ts");
  // a later call of the agent's at the top brings it, once the run is over
  const later = () =>
    hook(root, ".", {
      hook_event_name: "PostToolUse",
      tool_name: "Read",
      tool_input: { file_path: join(root, "README.md") },
      tool_response: {},
      tool_use_id: "toolu_3",
    });
  let told = "";
  for (let i = 0; i < 80 && !told.includes("background run"); i++) {
    told = later();
    if (!told.includes("background run")) Bun.sleepSync(250);
  }
  expect(told).toContain("'slow-lint' (background run");
  expect(told).toContain("failed on packages/web/src/a.ts");
  expect(told).toContain("packages/web/src/a.ts:3:1 error: BAD found");
}, 90_000);

test("Claude Code's background Stop hook at the top waits for a package's background run and hands its failure over", async () => {
  const root = monorepo();
  const go = join(root, "go");
  writeFiles(root, {
    "packages/web/callbacks.config.json": JSON.stringify({
      callbacks: [
        {
          name: "slow",
          pattern: "**/*.ts",
          run: `until [ -e '${go}' ]; do sleep 0.05; done; echo "slow: 2 tests failed" >&2; exit 1`,
          blocking: false,
          per: "file",
          timeout: 60,
        },
      ],
    }),
  });
  execFileSync("git", ["commit", "-qam", "slow check"], { cwd: root });
  const started = hook(root, ".", writeTool(root, "packages/web/src/a.ts"));
  expect(started).toContain("'slow' started in background on packages/web/src/a.ts");
  const stop = JSON.stringify({ hook_event_name: "Stop", session_id: "s1", cwd: root });
  const rewake = runAsync(["hook", "claude", "--rewake"], root, CLAUDE_ENV, stop);
  // the run cannot report before this: a rewake that did not wait would have said nothing
  writeFileSync(go, "");
  const woke = await rewake;
  expect(woke.code).toBe(2);
  expect(woke.stderr).toContain("'slow' (background run");
  expect(woke.stderr).toContain("failed on packages/web/src/a.ts");
}, 90_000);
