// The order of dist/cpilot's bytecode: which functions the hook calls run, recorded by
// running a first build through them (the runtime writes it where BUN_BYTECODE_ORDER_OUT
// says), for the final build's --bytecode-order, which lays that bytecode out first and
// together. A hook call then touches fewer pages of the ~110 MB executable: 1.7 MB less
// peak RSS per call (42.6 MB to 40.9 MB in scripts/bench-hook.ts's project), the same CPU.
// Functions are named by a hash of their code, so one host build's order serves every
// target's build, and a function the order does not name is laid out after, as before.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A hook call to record: the payload on stdin (an object, or raw text). */
interface Scenario {
  readonly name: string;
  readonly event?: string;
  readonly file?: string;
  readonly stdin?: string;
  /** The project whose config is a callbacks.config.ts (the one most users write). */
  readonly tsConfig?: true;
  /** A Claude Code that does not say its version (AI_AGENT): it may not send PostToolBatch. */
  readonly noVersion?: true;
}

/** Most important first: the order files are passed in this order. */
const SCENARIOS: readonly Scenario[] = [
  { name: "post-edit-match", event: "PostToolUse", file: "a.ts" },
  { name: "post-edit-match-ts-config", event: "PostToolUse", file: "a.ts", tsConfig: true },
  { name: "post-edit-match-no-version", event: "PostToolUse", file: "a.ts", noVersion: true },
  { name: "post-edit-none", event: "PostToolUse", file: "a.md" },
  { name: "pre-write", event: "PreToolUse", file: "a.ts" },
  { name: "empty-stdin", stdin: "" },
];

const CALLBACK = { name: "t", pattern: "*.ts", run: ["true"], timeout: 30, per: "file" };

function payload(project: string, s: Scenario): string {
  if (s.stdin !== undefined) return s.stdin;
  const path = join(project, s.file ?? "a.ts");
  return JSON.stringify({
    session_id: "bytecode-order",
    transcript_path: join(project, "t.jsonl"),
    cwd: project,
    permission_mode: "default",
    hook_event_name: s.event,
    tool_name: "Write",
    tool_input: { file_path: path, content: "export const a = 2;\n" },
    ...(s.event === "PostToolUse" ? { tool_response: { type: "update", filePath: path } } : {}),
    tool_use_id: `toolu_${s.name}`,
  });
}

/**
 * Run `binary` through the hook calls in a throwaway project and write one order file per
 * call under `dir`; returns their paths, most important first. Each call is made three times
 * and the third recorded: the first one in a project validates its config (and makes the
 * state folders; for a callbacks.config.ts, loads it in a child and keeps its value), which
 * later calls skip, and a later one finds an earlier result to replace.
 */
export function recordBytecodeOrder(binary: string, dir: string): string[] {
  const project = mkdtempSync(join(tmpdir(), "cpilot-bytecode-order-"));
  try {
    execFileSync("git", ["init", "-q", "-b", "main", project]);
    writeFileSync(
      join(project, "callbacks.config.json"),
      JSON.stringify({ callbacks: [CALLBACK] }),
    );
    writeFileSync(join(project, "a.ts"), "export const a = 1;\n");
    writeFileSync(join(project, "a.md"), "# a\n");
    const tsProject = join(project, "ts-config");
    mkdirSync(tsProject);
    writeFileSync(
      join(tsProject, "callbacks.config.ts"),
      `import { defineConfig } from "cpilot";\n\nexport default defineConfig({ callbacks: [${JSON.stringify(CALLBACK)}] });\n`,
    );
    writeFileSync(join(tsProject, "a.ts"), "export const a = 1;\n");
    // The environment Claude Code gives its hooks (AI_AGENT names its version: it sends
    // PostToolBatch), and nothing of the developer's; answered in the call's own process,
    // with a runtime folder of its own.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
      HOME: process.env.HOME ?? project,
      NO_COLOR: "1",
      AI_AGENT: "claude-code_2-1-330_cli",
      CPILOT_RUNTIME_DIR: join(project, ".runtime"),
    };
    return SCENARIOS.map((s) => {
      const out = join(dir, `${s.name}.order`);
      for (const record of [false, false, true]) {
        rmSync(out, { force: true });
        const where = s.tsConfig ? tsProject : project;
        const r = spawnSync(binary, ["hook", "claude"], {
          cwd: where,
          input: payload(where, s),
          env: {
            ...env,
            ...(s.noVersion ? { AI_AGENT: "" } : {}),
            ...(record ? { BUN_BYTECODE_ORDER_OUT: out } : {}),
          },
          stdio: ["pipe", "ignore", "pipe"],
        });
        if (r.status !== 0) {
          throw new Error(`the ${s.name} hook call exited ${r.status}: ${String(r.stderr)}`);
        }
      }
      if (!existsSync(out)) throw new Error(`the ${s.name} hook call wrote no bytecode order`);
      return out;
    });
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
