/** MCP edit results carry diagnostics as structured content beside the text. */
import { expect, test } from "bun:test";
import { project, startMcp } from "../mcp/_client.ts";

test("an edit's result holds its runs' diagnostics as data, each once", async () => {
  const say = `echo 'src/a.ts:2:5: error: cannot find name y [E1]'; exit 1`;
  const proj = project({
    callbacks: [
      { name: "check", pattern: "*.ts", run: say, timeout: 20 },
      { name: "lint", pattern: "*.ts", run: say, timeout: 20 },
    ],
  });
  const mcp = await startMcp(proj.dir, { args: ["--batch-window", "50"] });
  try {
    const result = await mcp.client.callTool(
      { name: "write_file", arguments: { path: "src/a.ts", content: "let x = 1;\nx = y;\n" } },
      undefined,
      { timeout: 60_000 },
    );
    const text = (result.content as { text: string }[]).map((c) => c.text).join("\n");
    expect(text.match(/src\/a\.ts:2:5 error E1: cannot find name y/g)).toHaveLength(1);
    expect(text).toContain("(the same 1 diagnostic as above)");
    const data = result.structuredContent as { diagnostics: Record<string, unknown>[] };
    expect(data.diagnostics).toHaveLength(1);
    expect(data.diagnostics[0]).toMatchObject({
      file: "src/a.ts",
      line: 2,
      column: 5,
      severity: "error",
      code: "E1",
      message: "cannot find name y",
      baseline: "new",
    });
    expect(["check", "lint"]).toContain(data.diagnostics[0]?.callback as string);
  } finally {
    await mcp.close();
    proj.remove();
  }
}, 60_000);
