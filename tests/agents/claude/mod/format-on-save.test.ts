/**
 * cpilot's Claude Code mod, with the real CLI against a scripted model: a Write of badly
 * formatted text reaches the model's own history formatted by the project's fixer (Biome),
 * the file matches, and an Edit whose `old_string` comes from the formatted text succeeds.
 */
import { afterEach, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { writeModPlugin } from "../../../../src/agents/claude/mod/plugin.ts";
import { pathWithCpilot } from "../../../helpers/binary.ts";
import { killMarked, RUN_MARKER } from "../../../support/_leftovers.ts";
import { buildEnv, CLAUDE_BIN, runClaude } from "../../../support/claude-cli.ts";
import {
  type RecordedRequest,
  startFakeAnthropic,
  textOf,
} from "../../../support/fake-anthropic.ts";
import type { ContentBlock } from "../../../support/request-text.ts";
import { makeTempProject } from "../../../support/temp-project.ts";
import { binary, cpilot } from "../_helpers.ts";

const BIOME = resolve(import.meta.dir, "../../../../node_modules/.bin/biome");

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The project's config: Biome formats TypeScript; a lint fails on a TODO. */
const CONFIG = {
  callbacks: [
    {
      name: "format",
      pattern: "*.ts",
      run: [BIOME, "format", "--write", "{file}"],
      fixes: true,
      timeout: 20,
      per: "file",
    },
    {
      name: "lint",
      pattern: "*.ts",
      run: '! grep -n TODO "$CP_CHANGED_FILE"',
      timeout: 20,
      per: "file",
    },
  ],
};

/** The input of the model's tool call `id` as the request replays the conversation. */
function callInput(req: RecordedRequest, id: string): Record<string, unknown> | undefined {
  const messages = (req.body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  for (const m of messages) {
    if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
    for (const block of m.content as ContentBlock[])
      if (block.type === "tool_use" && block.id === id)
        return block.input as Record<string, unknown>;
  }
  return undefined;
}

async function project() {
  const p = await makeTempProject();
  const home = await mkdtemp(join(tmpdir(), "cpilot-mod-home-"));
  cleanups.push(
    () => p.remove(),
    () => rm(home, { recursive: true, force: true }),
  );
  await p.write("callbacks.config.json", JSON.stringify(CONFIG));
  return { p, home };
}

test("cpilot run -- claude: the model's Write and Edit carry the formatted text", async () => {
  const { p, home } = await project();
  const api = await startFakeAnthropic([
    [
      {
        type: "tool_use",
        id: "toolu_write",
        name: "Write",
        input: { file_path: p.path("a.ts"), content: "const   x=1\nexport   {x}\n" },
      },
    ],
    [
      {
        type: "tool_use",
        id: "toolu_edit",
        name: "Edit",
        // old_string as the formatted file has it; new_string unformatted again
        input: {
          file_path: p.path("a.ts"),
          old_string: "const x = 1;",
          new_string: "const   y=2\nconst x=y",
        },
      },
    ],
    [{ type: "text", text: "done" }],
  ]);
  cleanups.push(() => api.close());
  const marker = randomUUID();
  const env = { ...buildEnv(home, api.url, {}), [RUN_MARKER]: marker };
  const args = ["run", "--", CLAUDE_BIN, "-p", "go", "--output-format", "stream-json", "--verbose"];
  args.push("--dangerously-skip-permissions", "--no-session-persistence");
  const child = spawn(binary(), args, { cwd: p.dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  child.stdout.resume();
  const code = await new Promise<number | null>((r) => child.on("close", r));
  killMarked(marker);
  expect({ code, stderr }).toMatchObject({ code: 0 });
  const turns = api.turns();
  expect(turns.length).toBe(3);
  // The model's own Write, as the next request replays it, holds Biome's text.
  expect(callInput(turns[1]!, "toolu_write")?.content).toBe("const x = 1;\nexport { x };\n");
  // Its Edit found its old_string and ran as rewritten: a whole-line Edit of formatted text.
  const edit = callInput(turns[2]!, "toolu_edit");
  expect(edit).toMatchObject({
    file_path: p.path("a.ts"),
    old_string: "const x = 1;\n",
    new_string: "const y = 2;\nconst x = y;\n",
  });
  expect(textOf(turns[2]!)).toContain("has been updated successfully");
  expect(textOf(turns[2]!)).not.toContain("String to replace not found");
  expect(readFileSync(p.path("a.ts"), "utf8")).toBe("const y = 2;\nconst x = y;\nexport { x };\n");
  expect(api.escapes()).toEqual([]);
}, 120_000);

test("the mod with cpilot gone: the write proceeds as the model wrote it and the hooks still report", async () => {
  const { p, home } = await project();
  const env = { PATH: pathWithCpilot() };
  expect(cpilot(["install", "claude"], { cwd: p.dir, env }).code).toBe(0);
  const mod = join(home, "mod");
  writeModPlugin(mod, [join(home, "no-such-cpilot")]);
  const api = await startFakeAnthropic([
    [
      {
        type: "tool_use",
        id: "toolu_write",
        name: "Write",
        input: { file_path: p.path("a.ts"), content: "const   x=1 // TODO\n" },
      },
    ],
    [{ type: "text", text: "done" }],
  ]);
  cleanups.push(() => api.close());
  const run = await runClaude({
    cwd: p.dir,
    prompt: "go",
    apiUrl: api.url,
    env: { PATH: pathWithCpilot(process.env.PATH ?? "/usr/bin:/bin") },
    args: ["--plugin-dir", mod],
  });
  expect(run.exitCode).toBe(0);
  const turns = api.turns();
  expect(callInput(turns[1]!, "toolu_write")?.content).toBe("const   x=1 // TODO\n");
  // The hooks ran: the lint failure reached the model, and the fixer formatted the file after.
  expect(textOf(turns[1]!)).toContain("'lint' failed on a.ts");
  expect(readFileSync(p.path("a.ts"), "utf8")).toBe("const x = 1; // TODO\n");
  expect(api.escapes()).toEqual([]);
}, 120_000);

test("install claude --mod: the person's sessions load the mod; uninstall --mod leaves no trace", async () => {
  const { p, home } = await project();
  const claudeDir = join(home, ".claude");
  const env = {
    PATH: pathWithCpilot(),
    HOME: home,
    CLAUDE_CONFIG_DIR: claudeDir,
    CPILOT_CLAUDE_BIN: CLAUDE_BIN,
  };
  // the person's own settings, with a plugin folder of theirs already listed
  const userSettings = join(claudeDir, "settings.json");
  mkdirSync(claudeDir, { recursive: true });
  writeFileSync(
    userSettings,
    JSON.stringify({ env: { CLAUDE_CODE_PLUGIN_DIRS: "/their/plugins", KEEP: "1" } }),
  );
  const installed = cpilot(["install", "claude", "--mod"], { cwd: p.dir, env });
  expect(installed.code).toBe(0);
  expect(installed.stderr + installed.stdout).toContain("format-on-save mod in");
  const api = await startFakeAnthropic([
    [
      {
        type: "tool_use",
        id: "toolu_write",
        name: "Write",
        input: { file_path: p.path("a.ts"), content: "let   y=2\n" },
      },
    ],
    [{ type: "text", text: "done" }],
  ]);
  cleanups.push(() => api.close());
  const run = await runClaude({
    cwd: p.dir,
    prompt: "go",
    apiUrl: api.url,
    env: {
      HOME: home,
      CLAUDE_CONFIG_DIR: claudeDir,
      PATH: pathWithCpilot(process.env.PATH ?? "/usr/bin:/bin"),
    },
  });
  expect(run.exitCode).toBe(0);
  expect(callInput(api.turns()[1]!, "toolu_write")?.content).toBe("let y = 2;\n");
  expect(readFileSync(p.path("a.ts"), "utf8")).toBe("let y = 2;\n");

  expect(cpilot(["uninstall", "claude", "--mod"], { cwd: p.dir, env }).code).toBe(0);
  expect(JSON.parse(readFileSync(userSettings, "utf8"))).toEqual({
    env: { CLAUDE_CODE_PLUGIN_DIRS: "/their/plugins", KEEP: "1" },
  });
  expect(existsSync(join(claudeDir, "cpilot-format"))).toBe(false);
}, 120_000);

test("the generated plugin passes Claude Code's own validation: one module, turn.step, $.process.run", async () => {
  const { home } = await project();
  const dir = join(home, "mod");
  writeModPlugin(dir, [binary()]);
  const r = spawnSync(CLAUDE_BIN, ["plugin", "validate", dir], {
    env: { ...buildEnv(home, "http://127.0.0.1:9", {}) },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(r.status).toBe(0);
  expect(r.stdout).toContain("hooks: turn.step");
  expect(r.stdout).toContain("calls: $.process.run");
});
