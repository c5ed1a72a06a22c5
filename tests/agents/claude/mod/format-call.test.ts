/**
 * `cpilot _format-call`, the built binary as the mod runs it: the model's arguments come
 * back formatted only where the project's fixers and the gate say so.
 */
import { afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../../../helpers/binary.ts";
import { tempDir } from "../../../helpers/tmp.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project whose fixers are `callbacks`; returns its folder. */
function project(callbacks: unknown[], files: Record<string, string> = {}): string {
  const dir = tempDir("cpilot-format-call-", { git: true });
  dirs.push(dir);
  writeFileSync(join(dir, "callbacks.config.json"), JSON.stringify({ callbacks }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Uppercases every `x`: a fixer whose effect is plain to see. */
const UPPER = {
  name: "upper",
  pattern: "*.txt",
  run: ["sed", "-i", "s/x/X/g", "{file}"],
  fixes: true,
  timeout: 20,
  per: "file",
};

function ask(
  dir: string,
  call: unknown,
  more: Record<string, unknown> = {},
): Record<string, unknown> {
  const r = cpilot(["_format-call", "claude"], {
    cwd: dir,
    input: JSON.stringify({ call, earlier: [], ...more }),
  });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

/** The folder holds exactly these names (besides cpilot's and git's own): no copy is left. */
function namesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n !== ".git" && n !== ".cpilot" && n !== "callbacks.config.json")
    .sort();
}

test("a Write comes back with the fixers' text; the file itself is not touched", () => {
  const dir = project([UPPER]);
  const reply = ask(dir, {
    tool: "Write",
    input: { file_path: join(dir, "a.txt"), content: "x y x\n" },
  });
  expect(reply).toEqual({
    input: { file_path: join(dir, "a.txt"), content: "X y X\n" },
    fixers: ["upper"],
  });
  expect(namesIn(dir)).toEqual([]);
});

test("an Edit comes back as a whole-line Edit from the file now to the formatted text", () => {
  const dir = project([UPPER], { "a.txt": "a\nX b\nc\n" });
  const input = { file_path: join(dir, "a.txt"), old_string: "X b", new_string: "x b x" };
  expect(ask(dir, { tool: "Edit", input })).toEqual({
    input: { file_path: join(dir, "a.txt"), old_string: "X b\n", new_string: "X b X\n" },
    fixers: ["upper"],
  });
  expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("a\nX b\nc\n");
  expect(namesIn(dir)).toEqual(["a.txt"]);
});

test("earlier Edits of the same response apply first", () => {
  const dir = project([UPPER], { "a.txt": "a\nb\n" });
  const file = join(dir, "a.txt");
  const earlier = [{ tool: "Edit", input: { file_path: file, old_string: "a", new_string: "A" } }];
  const reply = ask(
    dir,
    { tool: "Edit", input: { file_path: file, old_string: "A\nb", new_string: "A\nx" } },
    { earlier },
  );
  expect(reply.input).toEqual({ file_path: file, old_string: "b\n", new_string: "X\n" });
});

test("left as written: a protected file, no matching fixer, a failing fixer, an Edit Claude Code refuses", () => {
  const all = { ...UPPER, pattern: "*" };
  const dir = project([all], { "a.txt": "a\n" });
  const write = (name: string) => ({
    tool: "Write",
    input: { file_path: join(dir, name), content: "x\n" },
  });
  // the gate's built-in protections: a secrets file and cpilot's own config are never rewritten
  expect(ask(dir, write(".env"))).toEqual({ why: "the gate decides this write" });
  expect(ask(dir, write("callbacks.config.json")).input).toBeUndefined();
  expect(
    ask(dir, {
      tool: "Edit",
      input: { file_path: join(dir, "a.txt"), old_string: "zz", new_string: "x" },
    }).input,
  ).toBeUndefined();
  expect(ask(dir, write("../outside.txt")).input).toBeUndefined();

  const none = project([UPPER]);
  expect(
    ask(none, { tool: "Write", input: { file_path: join(none, "a.md"), content: "x\n" } }),
  ).toEqual({
    why: "no fixer matches the file",
  });
  const failing = project([
    { ...UPPER, run: ["sh", "-c", 'sed -i s/x/X/g "$0"; exit 3', "{file}"] },
  ]);
  expect(
    ask(failing, { tool: "Write", input: { file_path: join(failing, "a.txt"), content: "x\n" } })
      .input,
  ).toBeUndefined();
  expect(namesIn(failing)).toEqual([]);
  // a folder that does not exist yet: no copy is written there
  expect(
    ask(none, { tool: "Write", input: { file_path: join(none, "new", "a.txt"), content: "x\n" } })
      .input,
  ).toBeUndefined();
});

test("a fixer that hangs past the call's budget: the call is left as written, the copy removed", () => {
  const dir = project([{ ...UPPER, run: ["sh", "-c", "sleep 60", "{file}"] }]);
  const reply = ask(
    dir,
    { tool: "Write", input: { file_path: join(dir, "a.txt"), content: "x\n" } },
    { budgetMs: 500 },
  );
  expect(reply.input).toBeUndefined();
  expect(namesIn(dir)).toEqual([]);
});

test("no project config, or a request that is not a call: nothing to change", () => {
  const dir = tempDir("cpilot-format-call-none-", { git: true });
  dirs.push(dir);
  expect(
    ask(dir, { tool: "Write", input: { file_path: join(dir, "a.txt"), content: "x\n" } }).input,
  ).toBeUndefined();
  const r = cpilot(["_format-call", "claude"], { cwd: dir, input: "not json" });
  expect(JSON.parse(r.stdout)).toEqual({ why: "the request is not JSON" });
  expect(ask(dir, { tool: "Bash", input: { command: "ls" } })).toEqual({
    why: "the request is not a Write or Edit call",
  });
});
