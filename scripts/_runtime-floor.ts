// The runtime's own floor: an empty program compiled the way dist/cpilot is (same flags), so
// a benchmark can tell the time any compiled Bun program takes to start and exit on this
// machine from the time cpilot spends on its job.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export function buildRuntimeFloor(dir: string): string {
  const source = join(dir, "empty-program.ts");
  const out = join(dir, "empty-program");
  writeFileSync(source, "process.exitCode = 0;\n");
  const r = spawnSync(
    process.execPath,
    [
      "build",
      source,
      "--compile",
      "--format=esm",
      "--bytecode",
      "--minify",
      "--no-compile-autoload-dotenv",
      "--no-compile-autoload-bunfig",
      "--outfile",
      out,
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  if (r.status !== 0) throw new Error("compiling the empty program failed");
  return out;
}
