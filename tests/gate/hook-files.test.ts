/**
 * The gate protects the agents' hook files it is given by the top of the process (main.ts,
 * the library entry), from the agent registry; one never given them refuses to decide.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { AGENT_HOOK_FILES } from "../../src/agents/registry.ts";
import { ownConfigKind } from "../../src/gate/own-config.ts";

const SRC = join(import.meta.dir, "..", "..", "src");

test("every agent's hook files are protected, in any folder and any case", () => {
  for (const file of AGENT_HOOK_FILES) {
    expect(ownConfigKind(file)).toContain("hook settings");
    expect(ownConfigKind(`packages/app/${file.toUpperCase()}`)).toContain("hook settings");
  }
  expect(ownConfigKind(".claude/notes.json")).toBeNull();
});

test("a gate that was never given them throws rather than let them be written", () => {
  const script = `import { ownConfigKind } from ${JSON.stringify(join(SRC, "gate/own-config.ts"))};
try { ownConfigKind(".claude/settings.json"); console.log("decided"); } catch (err) { console.log(String(err)); }`;
  const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
  expect(run.stdout).toContain("was not given the agents' hook files");
});

test("the library entry gives them", () => {
  const script = `await import(${JSON.stringify(join(SRC, "index.ts"))});
const { ownConfigKind } = await import(${JSON.stringify(join(SRC, "gate/own-config.ts"))});
console.log(ownConfigKind(".qwen/settings.json"));`;
  const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
  expect(run.stdout).toContain("hook settings (.qwen/settings.json)");
});
