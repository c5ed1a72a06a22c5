// Build dist/cpilot: one executable with the runtime inside (no node_modules, no bun on PATH).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";

rmSync("dist", { recursive: true, force: true });
const args = [
  "build",
  "./main.ts",
  "--compile",
  "--bytecode",
  "--minify",
  "--sourcemap=none",
  "--outfile",
  "dist/cpilot",
];
const result = spawnSync(process.execPath, args, { stdio: "inherit" });
if (result.status !== 0) {
  process.stderr.write(`build failed: bun ${args.join(" ")} exited ${result.status}\n`);
  process.exit(1);
}
