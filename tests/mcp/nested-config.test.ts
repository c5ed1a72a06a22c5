/**
 * The nearest config decides for MCP clients too: an edit made through the MCP tools in a
 * package with its own tracked config is judged by that config, and its results come back in
 * the tool result with paths named from the project root.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type McpSession, project, startMcp } from "./_client.ts";

/** Fails on a file that says WEB_ERROR, as `file:line:col: message`. */
const WEB_CONFIG = {
  callbacks: [
    {
      name: "web-rule",
      pattern: "*.ts",
      run: 'for f in "$@"; do if grep -q WEB_ERROR "$f"; then echo "$f:1:1: error: WEB_ERROR is not allowed"; exit 1; fi; done',
      timeout: 20,
      successMessage: "web rule holds",
    },
    {
      name: "web-fmt",
      pattern: "*.js",
      run: 'for f in "$@"; do sed -i -E "s/([a-z0-9])=([a-z0-9])/\\1 = \\2/g" "$f"; done',
      timeout: 20,
      successMessage: "silent",
    },
    {
      name: "web-later",
      pattern: "*.ts",
      run: "echo web later done",
      blocking: false,
      successMessage: "web later holds",
    },
  ],
  gate: {
    rules: [{ action: "deny", pattern: "migrations/**", reason: "web's migrations are generated" }],
  },
};

/** The root's own check, which knows nothing of WEB_ERROR. */
const ROOT_CONFIG = {
  callbacks: [
    { name: "root-rule", pattern: "*.ts", run: "true", timeout: 20, successMessage: "root fine" },
  ],
};

function monorepo(rootConfig: Record<string, unknown> | null) {
  const proj = project(rootConfig, {
    "packages/web/callbacks.config.json": JSON.stringify(WEB_CONFIG, null, 2),
    "packages/web/src/keep.ts": "export const keep = 1;\n",
    // a config that cannot load: its callbacks are not a list
    "packages/api/callbacks.config.json": '{ "callbacks": 5 }\n',
    "packages/api/src/keep.ts": "export const keep = 1;\n",
    "top.ts": "export const top = 1;\n",
  });
  execFileSync("git", ["add", "-A"], { cwd: proj.dir });
  execFileSync("git", ["commit", "-qm", "init"], { cwd: proj.dir });
  return proj;
}

for (const [name, rootConfig] of [
  ["with a root config", ROOT_CONFIG],
  ["with no root config", null],
] as const) {
  describe(`an MCP client at the repository top, ${name}`, () => {
    let proj: ReturnType<typeof project>;
    let mcp: McpSession;
    let failedRun = "";

    beforeAll(async () => {
      proj = monorepo(rootConfig);
      mcp = await startMcp(proj.dir);
    });

    afterAll(async () => {
      await mcp.close();
      expect(mcp.errors).toEqual([]);
      proj.remove();
    });

    test("a package's own config judges its file: the error and the file, named from the top", async () => {
      const r = await mcp.call("write_file", {
        path: "packages/web/src/a.ts",
        content: "export const a = WEB_ERROR;\n",
      });
      expect(r.isError).toBe(false);
      expect(r.text).toContain("callbacks for packages/web/src/a.ts:");
      expect(r.text).toContain("judged by packages/web/callbacks.config.json:");
      expect(r.text).toContain("FAILED  web-rule on packages/web/src/a.ts");
      expect(r.text).toContain("packages/web/src/a.ts:1:1");
      expect(r.text).toContain("WEB_ERROR is not allowed");
      expect(r.text).not.toContain("root-rule");
      failedRun = /callback_logs with run_id "([^"]+)"/.exec(r.text)?.[1] ?? "";
    });

    test("callback_logs finds the package's run, its file named from the top", async () => {
      expect(failedRun).not.toBe("");
      const r = await mcp.call("callback_logs", { run_id: failedRun });
      expect(r.isError).toBe(false);
      expect(r.text).toContain(`run ${failedRun} · web-rule · failed`);
      expect(r.text).toContain("files: packages/web/src/a.ts");
      expect(r.text).toContain("WEB_ERROR is not allowed");
      const list = await mcp.call("callback_logs", {});
      expect(list.text).toContain(failedRun);
    });

    test("fixed, the package's check passes", async () => {
      const r = await mcp.call("edit_file", {
        path: "packages/web/src/a.ts",
        old_string: "WEB_ERROR",
        new_string: "1",
      });
      expect(r.isError).toBe(false);
      expect(r.text).toContain("judged by packages/web/callbacks.config.json:");
      expect(r.text).toMatch(/passed {2}web-rule: web rule holds/);
      expect(r.text).not.toContain("FAILED");
      expect(r.text).toContain("started web-later in the background");
    });

    test("the package's background result comes with a later call, named from the top", async () => {
      let text = "";
      for (let i = 0; i < 200 && !text.includes("Notices since"); i++) {
        await new Promise((done) => setTimeout(done, 100));
        text = (await mcp.call("read_file", { path: "top.ts" })).text;
      }
      expect(text).toContain("judged by packages/web/callbacks.config.json:");
      expect(text).toContain("Background callbacks for your edits of packages/web/src/a.ts");
      expect(text).toMatch(/passed {2}web-later: web later holds/);
    });

    // as a hook's gate refuses an edit under a config that does not load: its rules and
    // plugins cannot decide
    test("a package whose config does not load: writes there are refused", async () => {
      const r = await mcp.call("write_file", {
        path: "packages/api/src/b.ts",
        content: "export const b = 2;\n",
      });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("config did not load");
      expect(existsSync(join(proj.dir, "packages/api/src/b.ts"))).toBe(false);
    });

    test("the package's own gate rule refuses a write in its folder; the top's folder of that name is not its own", async () => {
      const r = await mcp.call("write_file", {
        path: "packages/web/migrations/001.sql",
        content: "drop table users;\n",
      });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("web's migrations are generated");
      expect(existsSync(join(proj.dir, "packages/web/migrations/001.sql"))).toBe(false);
      const top = await mcp.call("write_file", {
        path: "migrations/001.sql",
        content: "select 1;\n",
      });
      expect(top.isError).toBe(false);
      expect(readFileSync(join(proj.dir, "migrations/001.sql"), "utf8")).toBe("select 1;\n");
    });

    test("a package's formatter: the rewrite comes back for the file named from the top", async () => {
      const path = "packages/web/src/f.js";
      const created = await mcp.call("write_file", { path, content: "let x = 0;\n" });
      expect(created.isError).toBe(false);
      const r = await mcp.call("edit_file", { path, old_string: "x = 0", new_string: "x=1" });
      expect(r.isError).toBe(false);
      expect(readFileSync(join(proj.dir, path), "utf8")).toBe("let x = 1;\n");
      expect(r.text).toContain(`The callbacks rewrote ${path} after this call`);
      const next = await mcp.call("edit_file", { path, old_string: "x = 1", new_string: "x = 2" });
      expect(next.isError).toBe(false);
    });

    test("a file outside any package is the root's alone", async () => {
      const r = await mcp.call("write_file", {
        path: "top.ts",
        content: "export const top = 2;\n",
      });
      expect(r.text).not.toContain("judged by");
      expect(r.text).not.toContain("web-rule");
      if (rootConfig !== null) expect(r.text).toMatch(/passed {2}root-rule: root fine/);
    });
  });
}
