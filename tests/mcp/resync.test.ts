/** Formatter resync through the real binary: the next old_string matches what is on disk. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type McpSession, project, startMcp } from "./_client.ts";

// A tiny formatter: spaces around `=`, no space before `;`.
const FORMAT = `for f in $CP_CHANGED_FILES; do sed -i -E 's/([a-z0-9])=([a-z0-9])/\\1 = \\2/g; s/ +;/;/g' "$f"; done`;

let proj: ReturnType<typeof project>;
let mcp: McpSession;

beforeAll(async () => {
  proj = project({
    callbacks: [
      { name: "fmt", pattern: "*.js", run: FORMAT, timeout: 20, successMessage: "silent" },
      {
        name: "shout",
        pattern: "*.up",
        run: `for f in $CP_CHANGED_FILES; do tr a-z A-Z < "$f" > "$f.t" && mv "$f.t" "$f"; done`,
        timeout: 20,
      },
    ],
  });
  mcp = await startMcp(proj.dir);
});

afterAll(async () => {
  await mcp.close();
  expect(mcp.errors).toEqual([]);
  proj.remove();
});

const read = (path: string): string => readFileSync(join(proj.dir, path), "utf8");

/** The text of the first fenced block after `marker`. */
function fencedAfter(text: string, marker: string): string {
  const at = text.indexOf(marker);
  expect(at).toBeGreaterThanOrEqual(0);
  const m = /(`{3,})\n([\s\S]*?)\n\1/.exec(text.slice(at));
  if (!m) throw new Error(`no fenced block after ${marker}:\n${text}`);
  return m[2] ?? "";
}

test("edit_file: the result shows new_string as formatted, and the next edit using it succeeds", async () => {
  let r = await mcp.call("write_file", {
    path: "code.js",
    content: "function f() {\n  return 0;\n}\n",
  });
  expect(r.text).toBe("Created code.js (3 lines)");
  r = await mcp.call("edit_file", {
    path: "code.js",
    old_string: "  return 0;",
    new_string: "  let x=1 ;\n  return x ;",
  });
  expect(r.isError).toBe(false);
  expect(read("code.js")).toBe("function f() {\n  let x = 1;\n  return x;\n}\n");
  expect(r.text).toContain("The callbacks rewrote code.js after this call");
  const resynced = fencedAfter(r.text, "Your new_string now reads (lines 2-3)");
  expect(resynced).toBe("  let x = 1;\n  return x;");

  // What the agent wrote no longer matches; what it was told does.
  const stale = await mcp.call("edit_file", {
    path: "code.js",
    old_string: "  let x=1 ;",
    new_string: "  let x = 2;",
  });
  expect(stale.isError).toBe(true);
  r = await mcp.call("edit_file", {
    path: "code.js",
    old_string: resynced,
    new_string: "  let y=2;\n  return y;",
  });
  expect(r.isError).toBe(false);
  expect(read("code.js")).toBe("function f() {\n  let y = 2;\n  return y;\n}\n");
  expect(fencedAfter(r.text, "Your new_string now reads")).toBe("  let y = 2;\n  return y;");
});

test("edit_file without a formatter change says nothing about resync", async () => {
  const r = await mcp.call("edit_file", {
    path: "code.js",
    old_string: "function f()",
    new_string: "function g()",
  });
  expect(r.text).toBe("Edited code.js: 1 replacement (line 1)");
});

test("multi_edit and replace_all: each new_string as it stands", async () => {
  writeFileSync(join(proj.dir, "many.js"), "a;\nb;\na;\n");
  let r = await mcp.call("edit_file", {
    path: "many.js",
    old_string: "a;",
    new_string: "a=1 ;",
    replace_all: true,
  });
  expect(read("many.js")).toBe("a = 1;\nb;\na = 1;\n");
  expect(fencedAfter(r.text, "Each of the 2 replacements now reads")).toBe("a = 1;");
  writeFileSync(join(proj.dir, "multi.js"), "x;\nkeep1\ny;\nkeep2\nz;\n");
  r = await mcp.call("multi_edit", {
    path: "multi.js",
    edits: [
      { old_string: "y;", new_string: "y=2 ;" },
      { old_string: "x;", new_string: "x=1 ;" },
      { old_string: "keep2\nz;", new_string: "keep2\nw=3 ;" },
    ],
  });
  expect(r.isError).toBe(false);
  expect(read("multi.js")).toBe("x = 1;\nkeep1\ny = 2;\nkeep2\nw = 3;\n");
  expect(fencedAfter(r.text, "Edit 1's new_string now reads (line 3)")).toBe("y = 2;");
  expect(fencedAfter(r.text, "Edit 2's new_string now reads (line 1)")).toBe("x = 1;");
  expect(fencedAfter(r.text, "Edit 3's new_string now reads (lines 4-5)")).toBe("keep2\nw = 3;");

  // An edit whose text a later edit rewrote is not reported: the later one stands for it.
  r = await mcp.call("multi_edit", {
    path: "multi.js",
    edits: [
      { old_string: "keep1", new_string: "k=0 ;" },
      { old_string: "k=0 ;", new_string: "k=1 ;" },
    ],
  });
  expect(r.text).not.toContain("Edit 1");
  expect(fencedAfter(r.text, "Edit 2's new_string now reads (line 2)")).toBe("k = 1;");
});

test("write_file: the result shows the diff from what was written", async () => {
  const r = await mcp.call("write_file", { path: "w.js", content: "const a=1 ;\nconst b = 2;\n" });
  expect(read("w.js")).toBe("const a = 1;\nconst b = 2;\n");
  expect(r.text).toContain("Diff from what was written to what is on disk now:");
  expect(r.text).toContain("-const a=1 ;\n+const a = 1;");
});

test("a CRLF file: the resynced text has no CR, the next edit matches, the file stays CRLF", async () => {
  writeFileSync(join(proj.dir, "crlf.js"), "one;\r\ntwo;\r\n");
  let r = await mcp.call("edit_file", { path: "crlf.js", old_string: "two;", new_string: "t=2 ;" });
  expect(read("crlf.js")).toBe("one;\r\nt = 2;\r\n");
  const resynced = fencedAfter(r.text, "Your new_string now reads");
  expect(resynced).toBe("t = 2;");
  r = await mcp.call("edit_file", {
    path: "crlf.js",
    old_string: `one;\n${resynced}`,
    new_string: "one;\nthree;",
  });
  expect(r.isError).toBe(false);
  expect(read("crlf.js")).toBe("one;\r\nthree;\r\n");
});

test("when the region cannot be located with confidence, the agent is asked to re-read", async () => {
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
  writeFileSync(join(proj.dir, "big.up"), `${lines.join("\n")}\n`.toUpperCase());
  const r = await mcp.call("edit_file", {
    path: "big.up",
    old_string: "LINE 15",
    new_string: "line fifteen",
  });
  expect(r.isError).toBe(false);
  expect(read("big.up")).toContain("LINE FIFTEEN");
  expect(r.text).toContain("Your new_string now reads (line 16)");
  expect(fencedAfter(r.text, "Your new_string now reads")).toBe("LINE FIFTEEN");

  writeFileSync(join(proj.dir, "all.up"), `${lines.join("\n")}\n`);
  const all = await mcp.call("edit_file", {
    path: "all.up",
    old_string: "line 15",
    new_string: "line fifteen",
  });
  expect(all.text).toContain("cannot be located with confidence");
  expect(all.text).toContain("re-read the file with read_file");
});

test("two edits of one file in one batch: each result shows its own new_string as formatted", async () => {
  writeFileSync(join(proj.dir, "pair.js"), "first;\nmiddle\nsecond;\n");
  const [a, b] = await Promise.all([
    mcp.call("edit_file", { path: "pair.js", old_string: "second;", new_string: "s=2 ;" }),
    mcp.call("edit_file", {
      path: "pair.js",
      old_string: "first;",
      new_string: "f=1 ;\nextra=0 ;",
    }),
  ]);
  expect(read("pair.js")).toBe("f = 1;\nextra = 0;\nmiddle\ns = 2;\n");
  expect(fencedAfter(a!.text, "Your new_string now reads (line 4)")).toBe("s = 2;");
  expect(fencedAfter(b!.text, "Your new_string now reads (lines 1-2)")).toBe("f = 1;\nextra = 0;");
});
