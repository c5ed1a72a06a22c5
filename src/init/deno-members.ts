import { type Dirent, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ProjectFiles } from "./project-files.ts";
import type { Proposal } from "./spec.ts";

/** Enough files to see what a member imports, quick on a large workspace. */
const MAX_FILES = 2000;
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs)$/;
/** What deno test runs: `*_test.ts`, `*.test.ts`, `test.ts`. */
export const TEST_FILE = /(^|[._])test\.(ts|tsx|mts|js|jsx|mjs)$/;
const SKIPPED = new Set(["node_modules", "testdata", "fixtures"]);

/**
 * A Deno workspace member's `deno check` also runs on edits to the members its own modules
 * import by name (`@std/internal/styles`): Deno checks it against their source, so a rename
 * there can break it. Its tests' imports do not count: in a workspace whose every test
 * imports the assertions member, an edit there would start a check in every member.
 */
export function alsoOnImportedMembers(proposal: Proposal, root: string, dir: string): Proposal {
  const names = memberNames(root).filter((m) => m.dir !== dir);
  if (names.length === 0) return proposal;
  const text = sources(join(root, dir)).join("\n");
  // an import statement, not an example in a doc comment (` * import … from "@std/assert"`)
  const used = names.filter((m) =>
    new RegExp(
      `^(?:import|export|\\})[^\\n]*from\\s*["'](?:jsr:)?${regexpText(m.name)}(?:@[^/"']*)?(?:/|["'])`,
      "m",
    ).test(text),
  );
  if (used.length === 0) return proposal;
  const c = proposal.callback;
  const patterns = typeof c.pattern === "string" ? [c.pattern] : c.pattern;
  const more = used.flatMap((m) => ["ts", "tsx", "mts", "cts"].map((e) => `${m.dir}/**/*.${e}`));
  return {
    why: `${proposal.why}; it imports ${used.map((m) => m.name).join(", ")} from the workspace, checked on their edits too`,
    callback: { ...c, pattern: [...patterns, ...more] },
  };
}

/** The workspace's members with the package name their deno.json gives them. */
function memberNames(root: string): { dir: string; name: string }[] {
  const top = new ProjectFiles(root);
  const config = top.first("deno.json", "deno.jsonc");
  const ws = config === undefined ? undefined : (top.json(config) as { workspace?: unknown });
  const list = Array.isArray(ws?.workspace)
    ? ws.workspace
    : (ws?.workspace as { members?: unknown } | undefined)?.members;
  if (!Array.isArray(list)) return [];
  const out: { dir: string; name: string }[] = [];
  for (const entry of list) {
    if (typeof entry !== "string" || entry.includes("*")) continue;
    const dir = entry.replace(/^\.\//, "").replace(/\/+$/, "");
    const member = new ProjectFiles(join(root, dir), root);
    const file = member.first("deno.json", "deno.jsonc");
    const name = file === undefined ? undefined : (member.json(file) as { name?: unknown }).name;
    if (typeof name === "string" && name !== "") out.push({ dir, name });
  }
  return out;
}

function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= MAX_FILES) return;
      if (e.isDirectory() && !SKIPPED.has(e.name) && !e.name.startsWith("."))
        walk(join(at, e.name));
      else if (e.isFile() && SOURCE.test(e.name) && !TEST_FILE.test(e.name)) {
        try {
          out.push(readFileSync(join(at, e.name), "utf8"));
        } catch {}
      }
    }
  };
  walk(dir);
  return out;
}

function regexpText(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
