import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const FINISHED = join(import.meta.dir, "..", "..", "src", "diagnostics", "diagnose-finished.ts");

/** Whether a fresh process that diagnoses a failed run with `format` loads the output parsers. */
function loadsParsers(format: string): string {
  const dir = tempDir("cpilot-format-none-");
  writeFiles(dir, {
    "run.log": "src/a.ts(3,7): error TS2322: Type 'string' is not assignable.\n",
    "probe.ts": `
      import { diagnoseFinishedRun } from ${JSON.stringify(FINISHED)};
      const found = await diagnoseFinishedRun({
        batch: { root: ${JSON.stringify(dir)}, files: [], origin: { surface: "check" } },
        callback: "types", format: ${JSON.stringify(format)}, cwd: ${JSON.stringify(dir)},
        files: [], logPath: ${JSON.stringify(join(dir, "run.log"))}, status: "failed",
      });
      const parsers = Object.keys(require.cache).some((k) => k.endsWith("/parse-output.ts"));
      console.log(\`\${found?.diagnostics.length} diagnostics, parsers \${parsers ? "loaded" : "not loaded"}\`);`,
  });
  const run = spawnSync(process.execPath, [join(dir, "probe.ts")], { encoding: "utf8" });
  expect(run.stderr).toBe("");
  return run.stdout.trim();
}

test('a callback with format "none" has its log neither read nor parsed: no parser is loaded', () => {
  expect(loadsParsers("none")).toBe("0 diagnostics, parsers not loaded");
  expect(loadsParsers("auto")).toBe("1 diagnostics, parsers loaded");
});
