/**
 * The plugin folder carrying cpilot's mod: `cpilot run -- claude` passes it with
 * `--plugin-dir`; `install claude --mod` writes it where Claude Code loads plugins.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { selfArgv } from "../../../platform/self-command.ts";
import { writeFileAtomic } from "../../../util/atomic-write.ts";
import { VERSION } from "../../../version.ts";
import { registerSource } from "./register-source.ts";

export const MOD_NAME = "cpilot-format";

/** The longest the mod waits for cpilot on one call before it lets the call through. */
export const MOD_BUDGET_MS = 8_000;

export function modFiles(argv: readonly string[]): Record<string, string> {
  const manifest = {
    name: MOD_NAME,
    version: VERSION,
    description:
      "cpilot format-on-save: the model's Write and Edit calls carry the text the project's fixers leave",
    license: "MIT",
  };
  return {
    ".claude-plugin/plugin.json": `${JSON.stringify(manifest, null, 2)}\n`,
    "hooks/hooks.json": `${JSON.stringify({ modules: ["./register.ts"] }, null, 2)}\n`,
    "hooks/register.ts": registerSource(argv, MOD_BUDGET_MS),
  };
}

/** Each file replaced whole. */
export function writeModPlugin(dir: string, argv: readonly string[] = selfArgv()): void {
  for (const [rel, text] of Object.entries(modFiles(argv))) {
    const path = join(dir, rel);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileAtomic(path, text);
  }
}
