// `bun build --compile` for cpilot, shared by `npm run build` (this machine) and
// `npm run release` (every target). ESM with code splitting: each command loads only its
// own chunks (and the node: built-ins they import). One bundle would load every built-in
// any command uses at start-up, and that cost ~5 ms on every hook call (measured with
// scripts/bench-hook.ts).
import { spawnSync } from "node:child_process";
import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";

const MAIN = join(import.meta.dirname, "..", "main.ts");

export interface CompileOptions {
  readonly outfile: string;
  /** The commit and target `cpilot --version` names. */
  readonly commit: string;
  readonly targetName: string;
  /** Cross-compiling: Bun's --target and the runtime executable to wrap (no download). */
  readonly cross?: { readonly bunTarget: string; readonly runtime: string };
  /** Bytecode order files a first build's hook calls wrote (./_bytecode-order.ts), most important first. */
  readonly bytecodeOrder?: readonly string[];
}

/** The JIT tier-up scale dist/cpilot starts with (see compileArgs). */
const COMPILED_JIT_POLICY = 100;

/** The arguments to `bun` that compile main.ts into `outfile`. */
export function compileArgs(options: CompileOptions, outfile = options.outfile): string[] {
  return [
    "build",
    MAIN,
    "--compile",
    "--format=esm",
    "--splitting",
    "--bytecode",
    ...(options.bytecodeOrder?.length
      ? [`--bytecode-order=${options.bytecodeOrder.join(",")}`]
      : []),
    "--minify",
    "--sourcemap=none",
    // JavaScriptCore compiles code that ran a few hundred times, on its JIT threads: in a
    // call that lives 20 to 100 ms, that is CPU spent for nothing. 100 times the tier-up
    // thresholds keeps run-once code in the interpreter (CPU, median of 11 to 15 here:
    // check --all 33.7 to 30.2 ms at 2,000 files and 129.9 to 126.2 at 20,000, --staged
    // with 1,000 files 42.1 to 36.8, a run printing 5,000 diagnostics 35.6 to 31.4); the
    // long-lived processes (mcp, run) set it back (src/platform/jit.ts).
    `--compile-jit-policy=${COMPILED_JIT_POLICY}`,
    // A compiled Bun binary would otherwise read .env and bunfig.toml from whatever folder
    // it runs in: a project's secrets would leak into every callback, and a bunfig preload
    // written by an agent would run inside cpilot.
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
    // The policy above, for code that raises it for a while and must put it back.
    `--define=CPILOT_JIT_POLICY=${COMPILED_JIT_POLICY}`,
    `--define=CPILOT_BUILD_COMMIT=${JSON.stringify(options.commit)}`,
    `--define=CPILOT_BUILD_TARGET=${JSON.stringify(options.targetName)}`,
    ...(options.cross
      ? [
          `--target=${options.cross.bunTarget}`,
          `--compile-executable-path=${options.cross.runtime}`,
        ]
      : []),
    "--outfile",
    outfile,
  ];
}

/**
 * Compile beside the target and rename over it, so a running test never finds the binary
 * missing or half written. Throws with bun's exit status on failure.
 */
export function compile(options: CompileOptions): void {
  const tmp = `${options.outfile}.${process.pid}.tmp`;
  const args = compileArgs(options, tmp);
  const result = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) {
    rmSync(tmp, { force: true });
    throw new Error(
      `Cannot build "${options.outfile}": bun ${args.join(" ")} exited ${result.status}`,
    );
  }
  // Bun adds .exe to a Windows target's outfile.
  const written = options.outfile.endsWith(".exe") ? `${tmp}.exe` : tmp;
  renameSync(written, options.outfile);
}

/** The commit being built, short, with "-dirty" when the work tree has changes. */
export function currentCommit(repo: string): string {
  const git = (...args: string[]) =>
    spawnSync("git", args, { cwd: repo, encoding: "utf8" }).stdout?.trim() ?? "";
  const head = git("rev-parse", "--short=12", "HEAD") || "unknown";
  return git("status", "--porcelain", "--untracked-files=no") === "" ? head : `${head}-dirty`;
}
