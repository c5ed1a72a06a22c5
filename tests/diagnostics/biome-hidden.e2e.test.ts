/**
 * Biome prints at most 20 diagnostics (`--max-diagnostics`) and says how many it left out:
 * with 25 old errors in a file, the agent's new one there is never printed. The 20 old ones
 * alone must not pass as the whole story: the agent is told the output left some out and is
 * blocked, and `check --new-only` fails.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { batchEndContext } from "../agents/claude/_helpers.ts";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo } from "../helpers/tmp.ts";

const BIOME = join(import.meta.dir, "..", "..", "node_modules", ".bin", "biome");
const BLOCKS = "checks failed after your last edits";
const HIDDEN =
  "it printed only some of its diagnostics (its own limit, such as biome's --max-diagnostics), all there before: what it found in src/a.js may not be shown";
const OLD = "debugger;\n".repeat(25);

const hook = batchEndContext;

/** A committed project whose src/a.js has 25 old errors, linted whole by biome. */
function project(): string {
  return committedRepo("cpilot-biome-hidden-", {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "lint", pattern: "*.js", run: `${BIOME} lint src`, timeout: 120 }],
    }),
    "src/a.js": OLD,
  });
}

test("biome left the agent's error out of its 20 old ones: the agent is told so and blocked", () => {
  const root = project();
  const all = cpilot(["check", "--all"], { cwd: root });
  expect(all.stderr).toContain("src/a.js:20:1 error");
  writeFileSync(join(root, "src/a.js"), `${OLD}debugger;\n`);
  const told = hook(root, "src/a.js");
  expect(told).not.toContain("src/a.js:26:");
  expect(told).toContain(BLOCKS);
  expect(told).toContain(HIDDEN);
}, 120_000);

test("check --new-only: biome's output that left some out fails, and says so", () => {
  const root = project();
  expect(cpilot(["check", "--all", "--new-only"], { cwd: root }).code).toBe(0);
  writeFileSync(join(root, "src/a.js"), `${OLD}debugger;\n`);
  const r = cpilot(["check", "--new-only"], { cwd: root });
  expect(r.stderr).toContain(HIDDEN);
  expect(r.code).toBe(1);
}, 120_000);
