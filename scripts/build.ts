// Build dist/cpilot: one executable with the runtime inside (no node_modules, no bun on PATH).
// Built beside the target and renamed over it, so a running test never finds it missing.
// ESM with code splitting: each command loads only its own chunks (and the node: built-ins
// they import). One bundle would load every built-in any command uses at start-up, and
// that cost ~5 ms on every hook call (measured with scripts/bench-hook.ts).
import { spawnSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync } from "node:fs";

mkdirSync("dist", { recursive: true });
const tmp = `dist/.cpilot-${process.pid}.tmp`;
// A compiled Bun binary would otherwise read .env and bunfig.toml from whatever folder it
// runs in: a project's secrets would leak into every callback, and a bunfig preload written
// by an agent would run inside cpilot.
const args = [
  "build",
  "./main.ts",
  "--compile",
  "--format=esm",
  "--splitting",
  "--bytecode",
  "--minify",
  "--sourcemap=none",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  "--outfile",
  tmp,
];
const result = spawnSync(process.execPath, args, { stdio: "inherit" });
if (result.status !== 0) {
  rmSync(tmp, { force: true });
  process.stderr.write(`build failed: bun ${args.join(" ")} exited ${result.status}\n`);
  process.exit(1);
}
renameSync(tmp, "dist/cpilot");
