/** Temp context directories and real `bun` processes for the context tests. */
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const REPO = resolve(import.meta.dir, "../..");
export const BUN = join(REPO, "node_modules/.bin/bun");

/** A fresh, symlink-free temp directory; `cleanup` removes it. */
export function tempDir(prefix = "cpilot-context-"): { dir: string; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run `bun -e script args…` in `cwd`, optionally under `ulimit -f blocks` (SIGXFSZ ignored). */
export function runBun(
  script: string,
  args: readonly string[],
  options: { cwd: string; stdin?: string; fileSizeLimit?: number },
): Promise<Run> & { child: ReturnType<typeof spawn> } {
  const argv =
    options.fileSizeLimit === undefined
      ? [BUN, ["-e", script, ...args]]
      : [
          "bash",
          [
            "-c",
            `trap '' XFSZ; ulimit -f ${options.fileSizeLimit}; exec "$0" "$@"`,
            BUN,
            "-e",
            script,
            ...args,
          ],
        ];
  const child = spawn(argv[0] as string, argv[1] as string[], { cwd: options.cwd, stdio: "pipe" });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  child.stdin.end(options.stdin ?? "");
  const done = new Promise<Run>((resolvePromise) => {
    child.on("close", (code) => resolvePromise({ code, stdout, stderr }));
  });
  return Object.assign(done, { child });
}

/** `bun -e` that runs `cpilot context …` through contextCommand and exits with its code. */
export const CLI_SCRIPT = `import { contextCommand } from ${JSON.stringify(join(REPO, "src/cli/context.ts"))};
process.exit(await contextCommand(process.argv.slice(1)));`;

/**
 * Wait until `check` returns true, polling every 25 ms, failing after `ms`: a safety net long
 * enough for a busy machine, which costs nothing when the check comes true.
 */
export async function waitFor(check: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}
