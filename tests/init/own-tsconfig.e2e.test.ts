/**
 * `init --force` and the tsconfig.cpilot.json files an earlier init wrote for packages that
 * read a sibling's built types: init replaces or removes its own (as it wrote them), and
 * leaves every other one byte for byte: one the person edited, one the person wrote, a link.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const REPO_BIN = join(import.meta.dir, "..", "..", "node_modules", ".bin");
const APP = "packages/app/tsconfig.cpilot.json";
const SHARED = "packages/shared/tsconfig.cpilot.json";

const TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, module: "esnext", moduleResolution: "bundler", noEmit: true },
  include: ["src"],
});

/** An app that reads @demo/shared's types from its dist/ (`readsBuilt`), or from its source. */
function workspace(readsBuilt: boolean): string {
  const root = tempDir("cpilot-own-tsconfig-", { git: true });
  writeFiles(root, {
    ".gitignore": "node_modules/\n",
    "package.json": JSON.stringify({
      private: true,
      workspaces: ["packages/*"],
      devDependencies: { typescript: "^7.0.0" },
    }),
    "packages/shared/package.json": JSON.stringify({ name: "@demo/shared" }),
    "packages/shared/tsconfig.json": TSCONFIG,
    "packages/shared/src/index.ts": "export const greet = (name: string): string => name;\n",
    "packages/shared/dist/index.d.ts": "export declare const greet: (name: string) => string;\n",
    "packages/app/package.json": JSON.stringify({
      name: "@demo/app",
      dependencies: { "@demo/shared": "*" },
    }),
    "packages/app/tsconfig.json": TSCONFIG,
    "packages/app/src/main.ts": 'import { greet } from "@demo/shared";\n\ngreet("you");\n',
  });
  sharedTypes(root, readsBuilt);
  writeFiles(root, { "node_modules/@demo/.keep": "", "node_modules/.bin/.keep": "" });
  symlinkSync(join(root, "packages/shared"), join(root, "node_modules/@demo/shared"));
  symlinkSync(join(REPO_BIN, "tsc"), join(root, "node_modules/.bin/tsc"));
  return root;
}

function sharedTypes(root: string, built: boolean): void {
  const pkg = { name: "@demo/shared", ...(built ? { types: "dist/index.d.ts" } : {}) };
  writeFileSync(join(root, "packages/shared/package.json"), JSON.stringify(pkg));
}

function init(root: string, ...args: string[]) {
  const r = cpilot(["init", "--yes", "--format", "json", ...args], {
    cwd: root,
    env: { CI: "" },
  });
  expect(r.code).toBe(0);
  return `${r.stdout}\n${r.stderr}`;
}

test("init marks the tsconfig it writes (tsc reads it), and --force removes it once nothing reads built types", () => {
  const root = workspace(true);
  init(root);
  const written = readFileSync(join(root, APP), "utf8");
  expect(written).toContain('"//": "Written by `cpilot init`');
  const tsc = execFileSync(join(REPO_BIN, "tsc"), ["--noEmit", "-p", "tsconfig.cpilot.json"], {
    cwd: join(root, "packages/app"),
    encoding: "utf8",
  });
  expect(tsc).toBe("");
  // the same project again: init's own file is kept as it is (replaced by the same text)
  init(root, "--force");
  expect(readFileSync(join(root, APP), "utf8")).toBe(written);
  // the shared package now gives its source as its types: the file has no use
  sharedTypes(root, false);
  const said = init(root, "--force");
  expect(existsSync(join(root, APP))).toBe(false);
  expect(said).toContain(`removed ${join(root, APP)}`);
});

test("--force leaves a tsconfig.cpilot.json the person edited or wrote, and a link, byte for byte", () => {
  const root = workspace(true);
  init(root);
  const edited = readFileSync(join(root, APP), "utf8").replace(
    '"incremental": false',
    '"incremental": false,\n    "jsx": "react-jsx"',
  );
  writeFileSync(join(root, APP), edited);
  const theirs = '{ "extends": "./tsconfig.json" }\n';
  writeFileSync(join(root, SHARED), theirs);
  const elsewhere = join(tempDir("cpilot-elsewhere-"), "x.json");
  writeFileSync(elsewhere, readFileSync(join(root, APP), "utf8"));
  symlinkSync(elsewhere, join(root, "tsconfig.cpilot.json"));
  sharedTypes(root, false);
  const said = init(root, "--force");
  expect(readFileSync(join(root, APP), "utf8")).toBe(edited);
  expect(readFileSync(join(root, SHARED), "utf8")).toBe(theirs);
  expect(readlinkSync(join(root, "tsconfig.cpilot.json"))).toBe(elsewhere);
  expect(said).toContain(
    `${APP}: not as cpilot init writes it (edited, or from an earlier version); left as it is`,
  );
  expect(said).not.toContain("removed");
});

test("a package that still reads built types: init's file is replaced; an edited one is left and said so", () => {
  const root = workspace(true);
  init(root);
  const edited = readFileSync(join(root, APP), "utf8").replace('"noEmit": true', '"noEmit": false');
  writeFileSync(join(root, APP), edited);
  const said = init(root, "--force");
  expect(readFileSync(join(root, APP), "utf8")).toBe(edited);
  expect(said).toContain(`${APP} exists and is not as cpilot init wrote it; left as it is`);
  // an earlier init's file, without the mark: init's, as written, and replaced with the mark
  const unmarked = JSON.parse(readFileSync(join(root, APP), "utf8"));
  delete unmarked["//"];
  unmarked.compilerOptions.noEmit = true;
  writeFileSync(join(root, APP), `${JSON.stringify(unmarked, null, 2)}\n`);
  init(root, "--force");
  expect(readFileSync(join(root, APP), "utf8")).toContain('"//": "Written by `cpilot init`');
});

test("init's tsconfig laid out anew by the project's formatter stays init's: kept byte for byte, and still replaced when its settings must change", () => {
  const root = workspace(true);
  init(root);
  // what a formatter may make of it: other indent, arrays on one line, no final newline
  const settings = JSON.parse(readFileSync(join(root, APP), "utf8"));
  const formatted = JSON.stringify(settings, null, "\t");
  writeFileSync(join(root, APP), formatted);
  const said = init(root, "--force");
  expect(readFileSync(join(root, APP), "utf8")).toBe(formatted);
  expect(said).not.toContain("not as cpilot init");
  // a second workspace package the app now uses: the paths change, so init writes them
  writeFiles(root, {
    "packages/extra/package.json": JSON.stringify({ name: "@demo/extra", types: "dist/x.d.ts" }),
    "packages/extra/src/index.ts": "export const x = 1;\n",
    "packages/app/package.json": JSON.stringify({
      name: "@demo/app",
      dependencies: { "@demo/shared": "*", "@demo/extra": "*" },
    }),
  });
  init(root, "--force");
  expect(readFileSync(join(root, APP), "utf8")).toContain('"@demo/extra"');
});
