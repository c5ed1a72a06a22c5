import { expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastAssistantText } from "../../../src/agents/claude/transcript.ts";
import { tempDir } from "../../helpers/tmp.ts";

const line = (type: "user" | "assistant", text: string) =>
  JSON.stringify({ type, message: { role: type, content: [{ type: "text", text }] } });

test("the agent's last message is found at the end of a transcript of any size", () => {
  const path = join(tempDir(), "t.jsonl");
  const filler = line("assistant", "x".repeat(1000));
  const body = Array.from({ length: 6000 }, () => filler).join("\n"); // ~6 MB
  writeFileSync(path, `${body}\n${line("user", "fix it")}\n${line("assistant", "Fixed.")}\n`);
  expect(lastAssistantText(path)).toBe("Fixed.");
});

test("a path that is not a regular file gives nothing at once, never a hang", () => {
  const dir = tempDir();
  const fifo = join(dir, "fifo");
  execFileSync("mkfifo", [fifo]); // no writer: reading it would block forever
  // In a child with a deadline: a blocking read cannot be interrupted from inside.
  const module = join(import.meta.dir, "../../../src/agents/claude/transcript.ts");
  const paths = [fifo, "/dev/zero", dir, join(dir, "missing.jsonl")];
  const script = `const { lastAssistantText } = await import(${JSON.stringify(module)});
console.log(JSON.stringify(${JSON.stringify(paths)}.map(lastAssistantText)));`;
  const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 30_000 });
  expect(r.signal).toBeNull();
  expect(JSON.parse(r.stdout)).toEqual(["", "", "", ""]);
});
