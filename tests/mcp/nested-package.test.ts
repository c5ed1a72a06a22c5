/**
 * A package inside a package, each with its own tracked config: through the MCP tools, as
 * through the hooks, the inner one judges the edits in its folder and its gate holds the
 * writes there, and the instructions and callback tools name it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type McpSession, project, startMcp } from "./_client.ts";

const failing = (name: string) => ({
  name,
  pattern: "*.ts",
  run: `echo ${name} says no; exit 1`,
  timeout: 20,
});

describe("a package inside a package", () => {
  let proj: ReturnType<typeof project>;
  let mcp: McpSession;

  beforeAll(async () => {
    proj = project(
      { callbacks: [failing("root-fail")] },
      {
        "packages/web/callbacks.config.json": JSON.stringify({ callbacks: [failing("web-fail")] }),
        "packages/web/inner/callbacks.config.json": JSON.stringify({
          callbacks: [failing("inner-fail")],
          gate: { rules: [{ action: "deny", pattern: "secret/**", reason: "inner's secrets" }] },
        }),
        "packages/web/inner/keep.ts": "export const keep = 1;\n",
      },
    );
    execFileSync("git", ["add", "-A"], { cwd: proj.dir });
    execFileSync("git", ["commit", "-qm", "init"], { cwd: proj.dir });
    mcp = await startMcp(proj.dir);
  });

  afterAll(async () => {
    await mcp.close();
    expect(mcp.errors).toEqual([]);
    proj.remove();
  });

  test("the instructions name the inner package's callbacks under its own folder", () => {
    const text = mcp.client.getInstructions() ?? "";
    expect(text).toContain(
      "In packages/web (packages/web/callbacks.config.json):\n- web-fail (*.ts, blocking)",
    );
    expect(text).toContain(
      "In packages/web/inner (packages/web/inner/callbacks.config.json):\n- inner-fail (*.ts, blocking)",
    );
  });

  test("an edit in the inner package is judged by its config, named from the top", async () => {
    const r = await mcp.call("write_file", {
      path: "packages/web/inner/a.ts",
      content: "export const a = 1;\n",
    });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("judged by packages/web/inner/callbacks.config.json:");
    expect(r.text).toContain("FAILED  inner-fail on packages/web/inner/a.ts");
    expect(r.text).toContain("inner-fail says no");
    expect(r.text).not.toContain("web-fail");
    expect(r.text).not.toContain("root-fail");
    expect(r.text).toContain(
      "packages/web/inner/ left out: its own callbacks.config.json judges its files",
    );
    expect(r.text).not.toMatch(/^inner\//m);
  });

  test("the inner package's gate refuses a write in its folder", async () => {
    const r = await mcp.call("write_file", {
      path: "packages/web/inner/secret/x.ts",
      content: "export const x = 1;\n",
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("inner's secrets");
    expect(existsSync(join(proj.dir, "packages/web/inner/secret/x.ts"))).toBe(false);
  });

  test("callback_list shows it; callback_toggle pauses its callback", async () => {
    const list = await mcp.call("callback_list");
    expect(list.text).toMatch(/In packages\/web\/inner [^\n]*\n[^\n]*\ninner-fail\s/);
    const t = await mcp.call("callback_toggle", { name: "inner-fail", enabled: false });
    expect(t.isError).toBe(false);
    expect(t.text).toContain("now in packages/web/inner: inner-fail: off");
    const r = await mcp.call("write_file", {
      path: "packages/web/inner/a.ts",
      content: "export const a = 2;\n",
    });
    expect(r.text).not.toContain("FAILED");
  });
});
