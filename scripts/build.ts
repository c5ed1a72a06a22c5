// Build dist/cpilot for this machine: one executable with the runtime inside (no
// node_modules, no bun on PATH). `npm run release` builds every platform's.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { compile, currentCommit } from "./compile.ts";
import { hostTarget } from "./release/targets.ts";

const repo = join(import.meta.dirname, "..");
mkdirSync(join(repo, "dist"), { recursive: true });
try {
  compile({
    outfile: join(repo, "dist", "cpilot"),
    commit: currentCommit(repo),
    targetName: hostTarget()?.name ?? `${process.platform}-${process.arch}`,
  });
} catch (err) {
  process.stderr.write(`build failed: ${(err as Error).message}\n`);
  process.exit(1);
}
