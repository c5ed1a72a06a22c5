/**
 * The real Claude Code CLI calling cpilot's MCP tools: the tool result the model receives
 * carries the callback's result, and a formatter resync lets its next edit land.
 */
import { afterEach, expect, test } from "bun:test";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runClaude } from "../support/claude-cli.ts";
import { type FakeAnthropic, startFakeAnthropic, toolResults } from "../support/fake-anthropic.ts";
import { makeTempProject, type TempProject } from "../support/temp-project.ts";
import { mcpBinary } from "./_client.ts";

const TIMEOUT = 60_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const CONFIG = {
  callbacks: [
    {
      name: "lint",
      pattern: "*.js",
      run: 'for f in $CP_CHANGED_FILES; do if grep -q TODO "$f"; then echo "LINT-MARKER: $f has a TODO"; exit 1; fi; done',
      timeout: 20,
    },
    {
      name: "fmt",
      pattern: "*.js",
      run: `for f in $CP_CHANGED_FILES; do sed -i -E 's/([a-z0-9])=([a-z0-9])/\\1 = \\2/g' "$f"; done`,
      timeout: 20,
      successMessage: "silent",
    },
  ],
};

async function setup(): Promise<{ project: TempProject; mcpConfig: string }> {
  const project = await makeTempProject();
  cleanups.push(() => project.remove());
  await project.write("callbacks.config.json", JSON.stringify(CONFIG));
  const mcpConfig = project.path("mcp.json");
  await writeFile(
    mcpConfig,
    JSON.stringify({ mcpServers: { cpilot: { command: mcpBinary(), args: ["mcp"] } } }),
  );
  return { project, mcpConfig };
}

function resultText(block: Record<string, unknown>): string {
  const content = block.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((c) => (c as { text?: string }).text ?? "").join("\n");
  return "";
}

test(
  "the model receives the callback result in the MCP tool result, and its resynced edit lands",
  async () => {
    const { project, mcpConfig } = await setup();
    let resynced = "";
    const api: FakeAnthropic = await startFakeAnthropic((req, index) => {
      if (index === 0) {
        return [
          {
            type: "tool_use",
            name: "mcp__cpilot__write_file",
            input: { path: "app.js", content: "let a=1;\n// TODO: more\n" },
          },
        ];
      }
      if (index === 1) {
        // Use what the tool result said the line now is (the formatter rewrote it).
        const text = toolResults(req).map(resultText).join("\n");
        resynced = /^\+(let a = 1;)$/m.exec(text)?.[1] ?? "let a=1;";
        return [
          {
            type: "tool_use",
            name: "mcp__cpilot__edit_file",
            input: {
              path: "app.js",
              old_string: `${resynced}\n// TODO: more`,
              new_string: "let a=2;",
            },
          },
        ];
      }
      return [{ type: "text", text: "done" }];
    });
    cleanups.push(() => api.close());

    const run = await runClaude({
      cwd: project.dir,
      prompt: "write app.js",
      apiUrl: api.url,
      args: ["--mcp-config", mcpConfig, "--strict-mcp-config"],
    });
    if (run.exitCode !== 0) throw new Error(`claude exited ${run.exitCode}\n${run.stderr}`);
    expect(api.escapes()).toEqual([]);

    const turns = api.turns();
    expect(turns.length).toBe(3);
    // 2.1.x defers MCP tools behind ToolSearch; the model is still told their names.
    expect(JSON.stringify(turns[0]!.body)).toContain("mcp__cpilot__write_file");

    const first = toolResults(turns[1]!);
    expect(first).toHaveLength(1);
    const firstText = resultText(first[0]!);
    expect(firstText).toContain("Created app.js (2 lines)");
    expect(firstText).toContain("FAILED  lint on app.js: exit 1 (failed)");
    expect(firstText).toContain("LINT-MARKER: app.js has a TODO");
    expect(firstText).toContain("+let a = 1;");
    expect(resynced).toBe("let a = 1;");

    const second = toolResults(turns[2]!);
    const secondText = resultText(second[0]!);
    expect(second[0]!.is_error).not.toBe(true);
    expect(secondText).toContain("Edited app.js");
    expect(secondText).not.toContain("FAILED  lint");
    expect(secondText).toContain("Your new_string now reads");
    expect(await readFile(join(project.dir, "app.js"), "utf8")).toBe("let a = 2;\n");
  },
  TIMEOUT,
);

test(
  "a denied write reaches the model as an is_error tool result with the reason",
  async () => {
    const { project, mcpConfig } = await setup();
    const api = await startFakeAnthropic([
      [
        {
          type: "tool_use",
          name: "mcp__cpilot__write_file",
          input: { path: ".git/hooks/pre-commit", content: "x" },
        },
      ],
      [{ type: "text", text: "done" }],
    ]);
    cleanups.push(() => api.close());
    const run = await runClaude({
      cwd: project.dir,
      prompt: "go",
      apiUrl: api.url,
      args: ["--mcp-config", mcpConfig, "--strict-mcp-config"],
    });
    if (run.exitCode !== 0) throw new Error(`claude exited ${run.exitCode}\n${run.stderr}`);
    const [result] = toolResults(api.turns()[1]!);
    expect(result!.is_error).toBe(true);
    expect(resultText(result!)).toContain("inside a .git directory");
  },
  TIMEOUT,
);
