import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { TYPES_SOURCES } from "../config/_types-source.ts";
import { CONFIG_NAMES } from "../config/find.ts";
import { gitRoot } from "../match/files.ts";
import { say } from "../ui/style.ts";
import { CpilotError } from "../util/errors.ts";
import { parseFlags } from "./_common.ts";
import { detectToolchains } from "./init-detect.ts";

/** Ambient declarations so editors type `import ... from "cpilot"` with only the binary. */
export function ambientDeclarations(): string {
  const body = TYPES_SOURCES.join("\n")
    .replace(/^import[^\n]*\n/gm, "")
    .split("\n")
    .map((l) => (l === "" ? l : `  ${l}`))
    .join("\n");
  return `// Written by \`cpilot init\`: types for callbacks.config.ts when cpilot is not in node_modules.
declare module "cpilot" {
${body}
  // The gate section is typed fully when cpilot is installed from npm.
  type GateConfig = Record<string, unknown>;
  export function defineConfig<const T extends CpilotConfig>(config: T): T;
  export function defineCallback<const T extends CallbackDef>(callback: T): T;
}
`;
}

/** `cpilot init`: write a commented callbacks.config.ts for the toolchains found here. */
export async function initCommand(args: string[], options: { cwd: string }): Promise<number> {
  const { values } = parseFlags(
    args,
    { force: { type: "boolean" }, dir: { type: "string" } },
    "cpilot init [--force] [--dir DIR]",
  );
  const root = resolve(options.cwd, values.dir ?? ".");
  const existing = CONFIG_NAMES.map((n) => join(root, n)).find((p) => existsSync(p));
  if (existing && !values.force) {
    throw new CpilotError(`Cannot write a config in "${root}": ${existing} exists`, {
      hint: "edit it, or pass --force to replace it",
    });
  }
  const proposals = detectToolchains(root);
  const found = [...new Set(proposals.map((p) => p.why))];
  const callbacks =
    proposals.length > 0
      ? proposals.map((p) => p.source).join(",\n")
      : `    {\n      name: "example",\n      description: "replace with your checker",\n      pattern: "*.txt",\n      run: 'echo "changed: $CP_CHANGED_FILES"',\n      timeout: 10,\n    }`;
  const text = `import { defineConfig } from "cpilot";

// Callbacks run when an agent edits files that match \`pattern\` (gitignore-style rules).
// \`run\`: a bash string (files arrive as "$@", $CP_CHANGED_FILES and JSON on stdin),
// an argv array ({file} / {files} expand to arguments, no shell), or a function.
// Exit 0 passes, exit 7 stays silent, anything else is reported to the agent.
// Found here: ${found.length > 0 ? found.join(", ") : "no known toolchain"}.
export default defineConfig({
  callbacks: [
${callbacks},
  ],
});
`;
  writeFileSync(join(root, "callbacks.config.ts"), text);
  say(
    `wrote ${join(root, "callbacks.config.ts")} with ${proposals.length || 1} callback${proposals.length === 1 ? "" : "s"}`,
  );
  if (!existsSync(join(root, "node_modules", "cpilot"))) {
    writeFileSync(join(root, "cpilot-env.d.ts"), ambientDeclarations());
    say(`wrote ${join(root, "cpilot-env.d.ts")} so editors know the config's types`);
  }
  const top = gitRoot(root);
  if (top !== null) {
    const ignorePath = join(top, ".gitignore");
    const current = existsSync(ignorePath) ? readFileSync(ignorePath, "utf8") : "";
    if (!/^\/?\.cpilot\/?$/m.test(current)) {
      appendFileSync(
        ignorePath,
        `${current === "" || current.endsWith("\n") ? "" : "\n"}.cpilot/\n`,
      );
      say("added .cpilot/ (run logs and local state) to .gitignore");
    }
  }
  say(
    "next: `cpilot check --all` runs them once; `cpilot install claude` wires them into Claude Code",
  );
  return 0;
}
