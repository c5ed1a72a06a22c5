/** The edit tools through the real binary: results, errors as isError, line endings, read_file. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type McpSession, project, startMcp } from "./_client.ts";

let proj: ReturnType<typeof project>;
let mcp: McpSession;
const read = (path: string): string => readFileSync(join(proj.dir, path), "utf8");

beforeAll(async () => {
  proj = project(
    { callbacks: [] },
    {
      "crlf.txt": "one\r\ntwo\r\nthree\r\n",
      "nofinal.txt": "alpha\nbeta",
      "bom.txt": "\uFEFFfirst\nsecond\n",
      "dup.txt": "x = 1\ny = 2\nx = 1\nz = 3\nx = 1\n",
      "code.ts": [
        "export function add(a: number, b: number) {",
        "  return a + b;",
        "}",
        "",
        "export function sub(a: number, b: number) {",
        "  return a - b;",
        "}",
        "",
      ].join("\n"),
      "long.txt": `${Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n")}\n`,
    },
  );
  mcp = await startMcp(proj.dir);
});

afterAll(async () => {
  await mcp.close();
  expect(mcp.errors).toEqual([]);
  proj.remove();
});

describe("write_file", () => {
  test("creates a file (and its folders) and says so", async () => {
    const r = await mcp.call("write_file", { path: "src/new/a.ts", content: "const a = 1;\n" });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("Created src/new/a.ts (1 line)");
    expect(read("src/new/a.ts")).toBe("const a = 1;\n");
  });

  test("keeps CRLF when the agent sends LF, and the missing final newline", async () => {
    let r = await mcp.call("write_file", { path: "crlf.txt", content: "uno\ndos\n" });
    expect(r.text).toContain("Replaced crlf.txt");
    expect(r.text).toContain("CRLF");
    expect(read("crlf.txt")).toBe("uno\r\ndos\r\n");
    r = await mcp.call("write_file", { path: "nofinal.txt", content: "alpha\ngamma\n" });
    expect(r.isError).toBe(false);
    expect(read("nofinal.txt")).toBe("alpha\ngamma");
  });

  test("keeps a UTF-8 BOM", async () => {
    await mcp.call("write_file", { path: "bom.txt", content: "first\nthird\n" });
    expect(read("bom.txt")).toBe("\uFEFFfirst\nthird\n");
  });

  test("leaves no temp file behind (atomic write: temp + rename)", async () => {
    await mcp.call("write_file", { path: "atomic.txt", content: "x\n" });
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(proj.dir).filter((n) => n.includes(".tmp"))).toEqual([]);
  });
});

describe("edit_file", () => {
  test("replaces exact text and reports the line", async () => {
    const r = await mcp.call("edit_file", {
      path: "code.ts",
      old_string: "  return a - b;",
      new_string: "  return a - b - 0;",
    });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("Edited code.ts: 1 replacement (line 6)");
    expect(read("code.ts")).toContain("return a - b - 0;");
  });

  test("matches LF old_string in a CRLF file and writes CRLF back", async () => {
    await mcp.call("write_file", { path: "crlf2.txt", content: "" });
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(proj.dir, "crlf2.txt"), "a\r\nb\r\nc\r\n");
    const r = await mcp.call("edit_file", {
      path: "crlf2.txt",
      old_string: "a\nb\n",
      new_string: "A\nB\nB2\n",
    });
    expect(r.isError).toBe(false);
    expect(read("crlf2.txt")).toBe("A\r\nB\r\nB2\r\nc\r\n");
  });

  test("not unique: an error with the count and the lines of every match", async () => {
    const r = await mcp.call("edit_file", {
      path: "dup.txt",
      old_string: "x = 1",
      new_string: "x = 9",
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("matches 3 places (lines 1, 3, 5)");
    expect(r.text).toContain("replace_all");
    expect(read("dup.txt")).toBe("x = 1\ny = 2\nx = 1\nz = 3\nx = 1\n");
  });

  test("replace_all replaces every match", async () => {
    const r = await mcp.call("edit_file", {
      path: "dup.txt",
      old_string: "x = 1",
      new_string: "x = 9",
      replace_all: true,
    });
    expect(r.text).toContain("3 replacements (lines 1, 3, 5)");
    expect(read("dup.txt")).toBe("x = 9\ny = 2\nx = 9\nz = 3\nx = 9\n");
  });

  test("not found: the nearest lines, numbered, with a whitespace hint", async () => {
    const r = await mcp.call("edit_file", {
      path: "code.ts",
      old_string: "export function add(a: number, b: number) {\n    return a + b;\n}",
      new_string: "nothing",
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Cannot edit "code.ts": old_string was not found');
    expect(r.text).toContain("different whitespace");
    expect(r.text).toMatch(/lines 1-3 \(\d+% similar\):\n\s+1\texport function add/);
    expect(r.text).toContain("     2\t  return a + b;");
  });

  test("not found, nothing close: says so and points at read_file", async () => {
    const r = await mcp.call("edit_file", {
      path: "code.ts",
      old_string: "zzzzqqqq",
      new_string: "y",
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("read_file");
  });

  test("line-number prefixes copied from read_file get a hint", async () => {
    const r = await mcp.call("edit_file", {
      path: "code.ts",
      old_string: "     2\t  return a + b;",
      new_string: "  return b + a;",
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("line numbers from read_file");
  });

  test("a missing file is an error; an empty old_string creates it", async () => {
    let r = await mcp.call("edit_file", { path: "nope.txt", old_string: "a", new_string: "b" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("no such file");
    r = await mcp.call("edit_file", { path: "made.txt", old_string: "", new_string: "hello\n" });
    expect(r.isError).toBe(false);
    expect(read("made.txt")).toBe("hello\n");
  });

  test("old_string equal to new_string is refused", async () => {
    const r = await mcp.call("edit_file", {
      path: "made.txt",
      old_string: "hello",
      new_string: "hello",
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("the same");
  });
});

describe("multi_edit", () => {
  test("applies edits in order", async () => {
    const r = await mcp.call("multi_edit", {
      path: "code.ts",
      edits: [
        { old_string: "function add", new_string: "function plus" },
        { old_string: "function plus(a", new_string: "function plus(x" },
      ],
    });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("2 edits");
    expect(read("code.ts")).toContain("export function plus(x: number, b: number) {");
  });

  test("all or nothing: a failing edit leaves the file untouched and names the edit", async () => {
    const before = read("code.ts");
    const r = await mcp.call("multi_edit", {
      path: "code.ts",
      edits: [
        { old_string: "function plus", new_string: "function PLUS" },
        { old_string: "does not exist", new_string: "x" },
      ],
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("edit 2 of 2: old_string was not found; no edit was applied");
    expect(read("code.ts")).toBe(before);
  });
});

describe("delete_file", () => {
  test("deletes a file; a missing one or a directory is an error", async () => {
    let r = await mcp.call("delete_file", { path: "made.txt" });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("Deleted made.txt");
    expect(existsSync(join(proj.dir, "made.txt"))).toBe(false);
    r = await mcp.call("delete_file", { path: "made.txt" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("no such file");
    r = await mcp.call("delete_file", { path: "src" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("directory");
  });
});

describe("read_file", () => {
  test("line-numbered like cat -n, with offset and limit", async () => {
    let r = await mcp.call("read_file", { path: "long.txt" });
    expect(r.text.split("\n")[0]).toBe("     1\tline 1");
    expect(r.text).toContain("    30\tline 30");
    r = await mcp.call("read_file", { path: "long.txt", offset: 10, limit: 3 });
    expect(r.text).toBe(
      "    10\tline 10\n    11\tline 11\n    12\tline 12\n(lines 10-12 of 30; pass offset 13 to read on)",
    );
  });

  test("a CRLF file reads without carriage returns", async () => {
    const r = await mcp.call("read_file", { path: "crlf.txt" });
    expect(r.text).toBe("     1\tuno\n     2\tdos");
  });

  test("errors: missing, past the end, invalid arguments", async () => {
    expect((await mcp.call("read_file", { path: "missing.txt" })).isError).toBe(true);
    const past = await mcp.call("read_file", { path: "long.txt", offset: 99 });
    expect(past.isError).toBe(true);
    expect(past.text).toContain("30 lines");
    const bad = await mcp.call("read_file", { path: "long.txt", offset: -1 });
    expect(bad.isError).toBe(true);
    const unknown = await mcp.call("no_such_tool", {});
    expect(unknown.isError).toBe(true);
  });
});
