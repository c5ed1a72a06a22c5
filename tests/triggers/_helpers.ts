import { spawn } from "node:child_process";
import { join } from "node:path";
import type { CallbackDef, CpilotConfig } from "../../src/config/types.ts";
import { createEngine } from "../../src/engine/engine.ts";
import type { EditBatch } from "../../src/model/batch.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import { spawnAndWait } from "../support/run-cli.ts";

export const BUN = process.execPath;
export const RUNNER = join(import.meta.dir, "fixtures", "runner.ts");
export const MAIN = join(import.meta.dir, "..", "..", "main.ts");

/** A temp project with one file, `a.txt`, for callbacks matching "*.txt". */
export function project(): string {
  const root = tempDir("cpilot-hooks-");
  writeFiles(root, { "a.txt": "x\n" });
  return root;
}

export function batch(root: string, session?: string): EditBatch {
  return {
    root,
    files: [{ path: "a.txt", kind: "modified" }],
    origin: session ? { surface: "api", session } : { surface: "api" },
  };
}

/** A non-blocking-friendly callback on *.txt with a bash script. */
export function cb(name: string, run: string, extra: Partial<CallbackDef> = {}): CallbackDef {
  return { name, pattern: "*.txt", run, timeout: 30, ...extra } as CallbackDef;
}

export function engine(root: string, config: CpilotConfig | CallbackDef[]) {
  return createEngine({ root, config: Array.isArray(config) ? { callbacks: config } : config });
}

/** Start the fixture runner in its own process: returns the child and its stdout later. */
export function startRunner(spec: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(BUN, [RUNNER, JSON.stringify(spec)], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    err += c.toString();
  });
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    child.on("close", (code) => resolve({ code, out, err }));
  });
  return { child, done, stderr: () => err };
}

/** Run `bun main.ts ARGS` in `cwd`. */
export async function cli(cwd: string, args: string[]) {
  const env = process.env as Record<string, string>;
  const { code, stdout, stderr } = await spawnAndWait([BUN, MAIN, ...args], { cwd, env });
  return { code, out: stdout, err: stderr };
}
