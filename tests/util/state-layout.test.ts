/**
 * src/util/state-layout.ts owns the `.cpilot/` layout: no other source file spells the
 * folder's name in code (comments may name it), so moving or renaming anything under it
 * is a change to one file.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { STATE, STATE_DIR, stateRelative } from "../../src/util/state-layout.ts";

const ROOT = resolve(import.meta.dir, "../..");
const OWNER = "src/util/state-layout.ts";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The code of a line: not a comment line, and without a trailing `//` comment. */
function code(line: string): string {
  const trimmed = line.trim();
  if (trimmed.startsWith("//") || trimmed.startsWith("*") || trimmed.startsWith("/*")) return "";
  return line.replace(/\s\/\/ .*$/, "");
}

test("only state-layout.ts spells .cpilot in code", () => {
  const found: string[] = [];
  for (const file of [...sources(join(ROOT, "src")), join(ROOT, "main.ts")]) {
    const name = relative(ROOT, file);
    if (name === OWNER) continue;
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        // `.cpilot-...` names (a temp file, the context lock) are not under the folder.
        if (/(?<![\w?])\.cpilot(?![-\w])/.test(code(line)))
          found.push(`${name}:${i + 1}: ${line.trim()}`);
      });
  }
  expect(found).toEqual([]);
});

test("the layout's relative names are what users read in messages and defaults", () => {
  expect(STATE_DIR).toBe(".cpilot");
  expect(stateRelative(STATE.gateLog)).toBe(".cpilot/gate.log.jsonl");
  expect(stateRelative(STATE.lastResults)).toBe(".cpilot/last-results.md");
});
