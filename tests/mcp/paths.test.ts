/** Hostile paths are refused by every tool that touches files, and nothing is written. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/tmp.ts";
import { type McpSession, project, startMcp } from "./_client.ts";

let proj: ReturnType<typeof project>;
let outside: string;
let mcp: McpSession;

beforeAll(async () => {
  proj = project({ callbacks: [] }, { "ok.txt": "fine\n" });
  outside = tempDir("cpilot-mcp-outside-");
  writeFileSync(join(outside, "victim.txt"), "untouched\n");
  symlinkSync(outside, join(proj.dir, "escape"));
  symlinkSync(join(outside, "victim.txt"), join(proj.dir, "victim-link.txt"));
  mkdirSync(join(proj.dir, "inner"));
  writeFileSync(join(proj.dir, "inner", "real.txt"), "real\n");
  symlinkSync(join(proj.dir, "inner", "real.txt"), join(proj.dir, "inner-link.txt"));
  mcp = await startMcp(proj.dir);
});

afterAll(async () => {
  await mcp.close();
  expect(mcp.errors).toEqual([]);
  proj.remove();
  rmSync(outside, { recursive: true, force: true });
});

const hostile = () => [
  { name: "..", path: "../outside-write.txt" },
  { name: "absolute outside", path: join(outside, "victim.txt") },
  { name: "symlinked dir escape", path: "escape/victim.txt" },
  { name: "symlinked file escape", path: "victim-link.txt" },
  { name: ".git", path: ".git/config" },
  { name: ".git case variant", path: ".GIT/hooks/pre-commit" },
];

test("write_file, edit_file, multi_edit and delete_file refuse every hostile path", async () => {
  const gitConfig = readFileSync(join(proj.dir, ".git", "config"), "utf8");
  for (const { name, path } of hostile()) {
    const calls: [string, Record<string, unknown>][] = [
      ["write_file", { path, content: "pwned\n" }],
      ["edit_file", { path, old_string: "untouched", new_string: "pwned" }],
      ["multi_edit", { path, edits: [{ old_string: "untouched", new_string: "pwned" }] }],
      ["delete_file", { path }],
    ];
    for (const [tool, args] of calls) {
      const r = await mcp.call(tool, args);
      expect({ name, tool, isError: r.isError }).toEqual({ name, tool, isError: true });
      expect(r.text).toMatch(/^Cannot (write|edit|delete)/m);
      expect(r.text).not.toContain("pwned");
    }
  }
  expect(readFileSync(join(outside, "victim.txt"), "utf8")).toBe("untouched\n");
  expect(existsSync(join(proj.dir, "..", "outside-write.txt"))).toBe(false);
  expect(readFileSync(join(proj.dir, ".git", "config"), "utf8")).toBe(gitConfig);
});

test("an edit that misses does not leak a protected file's text through the candidates", async () => {
  writeFileSync(join(proj.dir, ".env"), "SECRET_TOKEN=abc123\n");
  const r = await mcp.call("edit_file", {
    path: ".env",
    old_string: "SECRET_TOKEN=x",
    new_string: "y",
  });
  expect(r.isError).toBe(true);
  expect(r.text).not.toContain("abc123");
});

test("read_file refuses paths outside the root and secrets", async () => {
  for (const path of [
    "../x.txt",
    join(outside, "victim.txt"),
    "escape/victim.txt",
    "victim-link.txt",
    ".env",
  ]) {
    const r = await mcp.call("read_file", { path });
    expect({ path, isError: r.isError }).toEqual({ path, isError: true });
    expect(r.text).not.toContain("untouched");
    expect(r.text).not.toContain("abc123");
  }
});

test("a symlink inside the root is written through, keeping the link", async () => {
  const r = await mcp.call("edit_file", {
    path: "inner-link.txt",
    old_string: "real",
    new_string: "REAL",
  });
  expect(r.isError).toBe(false);
  expect(readFileSync(join(proj.dir, "inner", "real.txt"), "utf8")).toBe("REAL\n");
  const { lstatSync } = await import("node:fs");
  expect(lstatSync(join(proj.dir, "inner-link.txt")).isSymbolicLink()).toBe(true);
});

test("absolute paths inside the root work", async () => {
  const r = await mcp.call("edit_file", {
    path: join(proj.dir, "ok.txt"),
    old_string: "fine",
    new_string: "good",
  });
  expect(r.isError).toBe(false);
  expect(readFileSync(join(proj.dir, "ok.txt"), "utf8")).toBe("good\n");
});
