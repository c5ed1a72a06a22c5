import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const TSC = join(import.meta.dir, "..", "..", "node_modules", ".bin", "tsc");

// With only the binary (no node_modules/cpilot), editors still type the config.
test("init's cpilot-env.d.ts types callbacks.config.ts: a good config checks, a bad one does not", () => {
  const root = tempDir("cpilot-types-", { git: true });
  writeFiles(root, {
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: "ESNext",
        moduleResolution: "bundler",
        target: "ES2022",
        types: [],
      },
      include: ["*.ts"],
    }),
  });
  // The types file is opt-in: it is one more file in the project's lint scope.
  expect(cpilot(["init", "--yes", "--format", "ts", "--types"], { cwd: root }).code).toBe(0);
  const ok = spawnSync(TSC, ["-p", "."], { cwd: root, encoding: "utf8" });
  expect(ok.stdout + ok.stderr).toBe("");
  expect(ok.status).toBe(0);
  appendFileSync(
    join(root, "callbacks.config.ts"),
    'export const bad = defineConfig({ callbacks: [{ name: "x", pattern: "*.ts", run: 5 }] });\n',
  );
  const bad = spawnSync(TSC, ["-p", "."], { cwd: root, encoding: "utf8" });
  expect(bad.status).not.toBe(0);
  expect(bad.stdout).toContain("callbacks.config.ts");
});
