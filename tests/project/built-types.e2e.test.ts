/**
 * A workspace whose app reads a shared package's types from its built dist/ (package.json
 * `"types": "dist/index.d.ts"`, as slate's packages do), with the real tsc: after `init`,
 * an agent's rename in the shared package's source is told to the agent through the real
 * hook path, though dist/ still has the old name.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const REPO_BIN = join(import.meta.dir, "..", "..", "node_modules", ".bin");

const TSCONFIG = (extra: object) =>
  JSON.stringify({
    compilerOptions: {
      strict: true,
      module: "esnext",
      moduleResolution: "bundler",
      target: "es2022",
      skipLibCheck: true,
      ...extra,
    },
    include: ["src"],
  });

function workspace(): string {
  const root = tempDir("cpilot-built-types-", { git: true });
  writeFiles(root, {
    ".gitignore": "node_modules/\ndist/\n",
    "package.json": JSON.stringify({
      private: true,
      workspaces: ["packages/*"],
      devDependencies: { typescript: "^7.0.0" },
    }),
    "packages/shared/package.json": JSON.stringify({
      name: "@demo/shared",
      main: "dist/index.js",
      types: "dist/index.d.ts",
    }),
    "packages/shared/tsconfig.json": TSCONFIG({
      declaration: true,
      outDir: "dist",
      rootDir: "src",
    }),
    "packages/shared/src/index.ts":
      'export function greet(name: string): string {\n  return "hi " + name;\n}\n',
    // the last build: what the app's own tsc reads
    "packages/shared/dist/index.d.ts": "export declare function greet(name: string): string;\n",
    "packages/app/package.json": JSON.stringify({
      name: "@demo/app",
      dependencies: { "@demo/shared": "*" },
    }),
    "packages/app/tsconfig.json": TSCONFIG({ noEmit: true }),
    "packages/app/src/main.ts": 'import { greet } from "@demo/shared";\n\ngreet("you");\n',
  });
  // what npm install leaves: the workspace package linked in, tsc hoisted to the root
  writeFiles(root, { "node_modules/@demo/.keep": "" });
  symlinkSync(join(root, "packages/shared"), join(root, "node_modules/@demo/shared"));
  writeFiles(root, { "node_modules/.bin/.keep": "" });
  symlinkSync(join(REPO_BIN, "tsc"), join(root, "node_modules/.bin/tsc"));
  return root;
}

const commit = (root: string, message: string) => {
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", message], { cwd: root });
};

test("a rename in a shared package's source breaks its dependent: the agent is told, though dist/ still has the old name", () => {
  const root = workspace();
  commit(root, "workspace");
  const init = cpilot(["init", "--yes", "--format", "json"], { cwd: root, env: { CI: "" } });
  expect(init.code).toBe(0);
  expect(init.stderr).toContain("it reads @demo/shared (dist/index.d.ts) from built types");
  const config = JSON.parse(readFileSync(join(root, "callbacks.config.json"), "utf8"));
  expect(config.callbacks.map((c: { name: string }) => c.name)).toContain("typecheck-packages-app");
  commit(root, "cpilot init");
  expect(cpilot(["check", "--all"], { cwd: root, env: { CI: "" } }).code).toBe(0);

  const file = join(root, "packages/shared/src/index.ts");
  const content = 'export function welcome(name: string): string {\n  return "hi " + name;\n}\n';
  writeFiles(root, { "packages/shared/src/index.ts": content });
  const hook = cpilot(["hook", "claude"], {
    cwd: root,
    env: { CI: "" },
    input: JSON.stringify({
      session_id: "s1",
      cwd: root,
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: file, content },
      tool_response: { type: "update", filePath: file },
      tool_use_id: "toolu_1",
    }),
  });
  const told = `${hook.stdout}\n${hook.stderr}`;
  expect(told).toContain("typecheck-packages-app");
  expect(told).toContain("packages/app/src/main.ts");
  expect(told).toContain("greet");
});

test("a shared package's own workspace dependency is read from its source too: with nothing built, the first check --all passes", () => {
  const root = workspace();
  // shared now re-exports core, whose dist/ was never built
  writeFiles(root, {
    "packages/core/package.json": JSON.stringify({
      name: "@demo/core",
      main: "dist/index.js",
      types: "dist/index.d.ts",
    }),
    "packages/core/tsconfig.json": TSCONFIG({ declaration: true, outDir: "dist", rootDir: "src" }),
    "packages/core/src/index.ts": 'export const version: string = "1";\n',
    "packages/shared/package.json": JSON.stringify({
      name: "@demo/shared",
      main: "dist/index.js",
      types: "dist/index.d.ts",
      dependencies: { "@demo/core": "*" },
    }),
    "packages/shared/src/index.ts":
      'export { version } from "@demo/core";\nexport function greet(name: string): string {\n  return "hi " + name;\n}\n',
  });
  symlinkSync(join(root, "packages/core"), join(root, "node_modules/@demo/core"));
  commit(root, "workspace");
  const init = cpilot(["init", "--yes", "--format", "json"], { cwd: root, env: { CI: "" } });
  expect(init.code).toBe(0);
  expect(init.stderr).toContain(
    "it reads @demo/shared (dist/index.d.ts), @demo/core (dist/index.d.ts) from built types",
  );
  commit(root, "cpilot init");
  const all = cpilot(["check", "--all"], { cwd: root, env: { CI: "" } });
  expect(all.stderr).not.toContain("Cannot find module");
  expect(all.code).toBe(0);
});
