/** The write gate in front of the edit tools: a denial is an isError result, a modify is applied and told. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFiles } from "../helpers/tmp.ts";
import { type McpSession, project, startMcp } from "./_client.ts";

const PLUGIN = `
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const w = JSON.parse(input);
  if (w.path.endsWith(".ts") && typeof w.content === "string" && !w.content.startsWith("// license")) {
    process.stdout.write(JSON.stringify({ decision: "modify", content: "// license\\n" + w.content }));
  } else {
    process.stdout.write(JSON.stringify({ decision: "allow" }));
  }
});
`;

let proj: ReturnType<typeof project>;
let mcp: McpSession;

beforeAll(async () => {
  proj = project({
    callbacks: [
      {
        name: "seen",
        pattern: "*.ts",
        run: "echo saw $CP_CHANGED_FILES",
        timeout: 10,
        successMessage: "checked",
      },
    ],
    gate: {
      rules: [
        {
          action: "deny",
          pattern: "vendor/**",
          reason: "vendor/ is generated; change the generator instead",
        },
      ],
      plugins: [{ name: "license", command: [process.execPath, "license-plugin.js"] }],
    },
  });
  writeFiles(proj.dir, { "license-plugin.js": PLUGIN });
  mcp = await startMcp(proj.dir);
});

afterAll(async () => {
  await mcp.close();
  expect(mcp.errors).toEqual([]);
  proj.remove();
});

test("a denied write is an isError result with the rule's reason, and nothing is written", async () => {
  const r = await mcp.call("write_file", { path: "vendor/lib.js", content: "x\n" });
  expect(r.isError).toBe(true);
  expect(r.text).toContain("vendor/ is generated; change the generator instead");
  expect(existsSync(join(proj.dir, "vendor", "lib.js"))).toBe(false);
});

test("a plugin's modify is what lands, and the result says what the gate changed", async () => {
  const r = await mcp.call("write_file", { path: "a.ts", content: "export const a = 1;\n" });
  expect(r.isError).toBe(false);
  expect(readFileSync(join(proj.dir, "a.ts"), "utf8")).toBe("// license\nexport const a = 1;\n");
  expect(r.text).toContain("The write gate changed this write: content changed: +1/-0 lines");
  expect(r.text).toContain("+// license");
  expect(r.text).toContain("passed  seen: checked");
  const e = await mcp.call("edit_file", { path: "a.ts", old_string: "a = 1", new_string: "a = 2" });
  expect(e.isError).toBe(false);
  expect(e.text).not.toContain("write gate");
  expect(readFileSync(join(proj.dir, "a.ts"), "utf8")).toBe("// license\nexport const a = 2;\n");
});
