import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const REPO = join(import.meta.dir, "..", "..");
const TSC = join(REPO, "node_modules", ".bin", "tsc");

// cpilot installed as an npm dependency: node_modules/cpilot is the package (here, this repo).
test("with cpilot in node_modules the config's import works from source and from the binary, and type-checks", () => {
  const root = tempDir("cpilot-npmdep-", { git: true });
  mkdirSync(join(root, "node_modules"));
  symlinkSync(REPO, join(root, "node_modules", "cpilot"));
  writeFiles(root, {
    "callbacks.config.ts": `import { defineCallback, defineConfig } from "cpilot";
const echo = defineCallback({ name: "echo", pattern: "*.txt", run: ["echo", "{files}"], timeout: 5 });
export default defineConfig({ callbacks: [echo] });
`,
    "a.txt": "",
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: "ESNext",
        moduleResolution: "bundler",
        target: "ES2022",
        allowImportingTsExtensions: true,
        skipLibCheck: true,
        // A TypeScript project has Node's types; cpilot's sources use node: modules.
        typeRoots: [join(REPO, "node_modules", "@types")],
        types: ["node"],
      },
      include: ["callbacks.config.ts"],
    }),
  });
  const fromSource = spawnSync(
    process.execPath,
    [join(REPO, "main.ts"), "check", "a.txt", "--json"],
    { cwd: root, encoding: "utf8" },
  );
  expect(JSON.parse(fromSource.stdout).runs[0].tail).toEqual(["a.txt"]);
  const fromBinary = JSON.parse(cpilot(["check", "a.txt", "--json"], { cwd: root }).stdout);
  expect(fromBinary.runs[0].tail).toEqual(["a.txt"]);
  const types = spawnSync(TSC, ["-p", "."], { cwd: root, encoding: "utf8" });
  expect(types.stdout).toBe("");
  expect(types.status).toBe(0);
});
