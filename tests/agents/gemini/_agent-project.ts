/** A temp git project with a cpilot config, and the built binary answering one agent's hooks. */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Result } from "../../helpers/binary.ts";
import { tempDir, writeFiles } from "../../helpers/tmp.ts";
import { binary, cpilot, runAsync } from "../claude/_helpers.ts";

export { binary, cpilot };

export interface AgentProject {
  readonly dir: string;
  path(name: string): string;
  write(files: Record<string, string>): void;
  /** `cpilot hook <agent>` with `payload` on stdin; `json` is the parsed stdout (null when empty). */
  hook(payload: Record<string, unknown>, env?: Record<string, string>): Result & { json: unknown };
  hookAsync(
    payload: Record<string, unknown>,
    env?: Record<string, string>,
  ): Promise<Result & { json: unknown }>;
  remove(): void;
}

/** A fresh project for `agent` whose callbacks.config.json holds `config` (null: no config). */
export function agentProject(
  agent: string,
  config: unknown,
  files: Record<string, string> = {},
  fill: (dir: string) => Record<string, unknown> = (dir) => ({ session_id: "s1", cwd: dir }),
): AgentProject {
  const dir = tempDir(`cpilot-${agent}-`, { git: true });
  if (config !== null)
    writeFileSync(join(dir, "callbacks.config.json"), JSON.stringify(config, null, 2));
  writeFiles(dir, files);
  return {
    dir,
    path: (name) => join(dir, name),
    write: (more) => writeFiles(dir, more),
    hook(payload, env = {}) {
      const r = cpilot(["hook", agent], {
        cwd: dir,
        env,
        input: JSON.stringify({ ...fill(dir), ...payload }),
      });
      return { ...r, json: r.stdout.trim() === "" ? null : JSON.parse(r.stdout) };
    },
    hookAsync(payload, env = {}) {
      return runAsync(["hook", agent], dir, env, JSON.stringify({ ...fill(dir), ...payload }));
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A blocking callback that fails with "BAD in <file>" when a changed .ts file holds BAD. */
export const LINT = {
  name: "lint",
  pattern: "**/*.ts",
  timeout: 30,
  run: 'printf "%s\\n" "$CP_CHANGED_FILES" | while IFS= read -r f; do if grep -q BAD "$f"; then echo "BAD in $f"; exit 1; fi; done',
};

/** A callback that rewrites .fmt files (a formatter): lowercase to uppercase. */
export const FORMAT = {
  name: "fmt",
  pattern: "**/*.fmt",
  timeout: 30,
  run: 'for f in $CP_CHANGED_FILES; do tr a-z A-Z < "$f" > "$f.tmp" && mv "$f.tmp" "$f"; done',
};

/** A passing callback with a success message. */
export const OK = {
  name: "types",
  pattern: "**/*.ok",
  timeout: 30,
  run: "true",
  successMessage: "types are fine",
};

/** A gate: writes under locked/ are denied; a plugin rewrites *.mod files to "MODIFIED\n". */
export const GATE = {
  rules: [{ action: "deny", pattern: "locked/**", reason: "locked/ is read-only for agents" }],
  plugins: [
    {
      name: "rewriter",
      command: `input=$(cat); case "$input" in *'.mod"'*) printf '%s\\n' '{"decision":"modify","content":"MODIFIED\\n","reason":"house style"}';; *) echo '{"decision":"allow"}';; esac`,
    },
  ],
};
