/** Calls that arrive together form one batch: a batch callback runs once for all of them. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type McpSession, project, startMcp } from "./_client.ts";

let proj: ReturnType<typeof project>;
let mcp: McpSession;

beforeAll(async () => {
  proj = project({
    callbacks: [
      {
        name: "once",
        pattern: "*.ts",
        run: 'echo "$(echo $CP_CHANGED_FILES)" >> batches.log; echo ran on $(echo $CP_CHANGED_FILES | wc -w) files',
        timeout: 20,
        successMessage: "batch checked",
      },
      {
        name: "each",
        pattern: "*.ts",
        per: "file",
        run: 'echo "$CP_CHANGED_FILES" >> each.log',
        timeout: 20,
        successMessage: "file checked",
      },
    ],
  });
  mcp = await startMcp(proj.dir, { args: ["--batch-window", "150"] });
});

afterAll(async () => {
  await mcp.close();
  expect(mcp.errors).toEqual([]);
  proj.remove();
});

const lines = (name: string): string[] =>
  readFileSync(join(proj.dir, name), "utf8").trim().split("\n").filter(Boolean);

test("parallel calls: the batch callback runs once for all files; each result carries its file's runs", async () => {
  const results = await Promise.all([
    mcp.call("write_file", { path: "a.ts", content: "a\n" }),
    mcp.call("write_file", { path: "b.ts", content: "b\n" }),
    mcp.call("write_file", { path: "c.ts", content: "c\n" }),
    mcp.call("write_file", { path: "readme.md", content: "not matched\n" }),
  ]);
  expect(lines("batches.log")).toEqual(["a.ts b.ts c.ts"]);
  expect(lines("each.log").sort()).toEqual(["a.ts", "b.ts", "c.ts"]);
  for (const [i, name] of ["a.ts", "b.ts", "c.ts"].entries()) {
    const r = results[i]!;
    expect(r.isError).toBe(false);
    expect(r.text).toContain(`callbacks for ${name}:`);
    expect(r.text).toContain("passed  once: batch checked");
    // The per-file run shown is this file's only.
    expect(r.text.match(/passed {2}each/g)?.length).toBe(1);
  }
  expect(results[3]!.text).toBe("Created readme.md (1 line)");
});

test("one batch with two edits of the same file: both land, the callback runs once", async () => {
  const [first, second] = await Promise.all([
    mcp.call("edit_file", { path: "a.ts", old_string: "a\n", new_string: "a\nline2\n" }),
    mcp.call("edit_file", { path: "a.ts", old_string: "line2", new_string: "line two" }),
  ]);
  expect(first!.isError).toBe(false);
  expect(second!.isError).toBe(false);
  expect(readFileSync(join(proj.dir, "a.ts"), "utf8")).toBe("a\nline two\n");
  expect(lines("batches.log")).toEqual(["a.ts b.ts c.ts", "a.ts"]);
});

test("a refused call in a batch answers with its error; the others still run", async () => {
  const [bad, good] = await Promise.all([
    mcp.call("edit_file", { path: "b.ts", old_string: "missing", new_string: "x" }),
    mcp.call("write_file", { path: "d.ts", content: "d\n" }),
  ]);
  expect(bad!.isError).toBe(true);
  expect(good!.text).toContain("passed  once");
  expect(lines("batches.log").at(-1)).toBe("d.ts");
});

test("calls apart in time are separate batches", async () => {
  await mcp.call("write_file", { path: "e.ts", content: "e\n" });
  await new Promise((r) => setTimeout(r, 300));
  await mcp.call("write_file", { path: "f.ts", content: "f\n" });
  expect(lines("batches.log").slice(-2)).toEqual(["e.ts", "f.ts"]);
});
