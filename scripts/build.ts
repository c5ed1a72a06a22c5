// Build dist/cpilot for this machine: one executable with the runtime inside (no
// node_modules, no bun on PATH). `npm run release` builds every platform's.
// Two passes: the first build runs the hook calls once to record which bytecode they use
// (./_bytecode-order.ts), and the final build lays that bytecode out first.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recordBytecodeOrder } from "./_bytecode-order.ts";
import { compile, currentCommit } from "./compile.ts";
import { hostTarget } from "./release/targets.ts";

const repo = join(import.meta.dirname, "..");
mkdirSync(join(repo, "dist"), { recursive: true });
const work = mkdtempSync(join(tmpdir(), "cpilot-build-"));
try {
  const options = {
    outfile: join(repo, "dist", "cpilot"),
    commit: currentCommit(repo),
    targetName: hostTarget()?.name ?? `${process.platform}-${process.arch}`,
  };
  const first = join(work, "cpilot");
  compile({ ...options, outfile: first });
  let bytecodeOrder: string[] = [];
  try {
    bytecodeOrder = recordBytecodeOrder(first, work);
  } catch (err) {
    // A hook call that fails is for the tests to show; the build still makes a binary.
    process.stderr.write(
      `build: laying out the bytecode as built, not by the hook calls' order: ${(err as Error).message}\n`,
    );
  }
  compile({ ...options, bytecodeOrder });
} catch (err) {
  process.stderr.write(`build failed: ${(err as Error).message}\n`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
