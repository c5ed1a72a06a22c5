/**
 * Which `tsc -b` runs can leave a project unbuilt, and which edited files that leaves
 * unread: read from real folders, with TypeScript installed as npm lays it out (a package
 * of the version named, its bin linked from node_modules/.bin). The real compilers'
 * behaviour is proven in tsc-build-stops.e2e.test.ts and tsc55-build-stops.e2e.test.ts.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { commandStopsEarly } from "../../src/diagnostics/baseline/stops-early.ts";
import { tempDir } from "../helpers/tmp.ts";

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** TypeScript `version` in root's node_modules, with its .bin link. */
function typescript(root: string, version: string): void {
  write(root, {
    "node_modules/typescript/package.json": JSON.stringify({ name: "typescript", version }),
    "node_modules/typescript/bin/tsc": "#!/usr/bin/env node\n",
  });
  mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
  symlinkSync("../typescript/bin/tsc", join(root, "node_modules/.bin/tsc"));
}

const project = (extra: object = {}) =>
  JSON.stringify({ compilerOptions: { composite: true }, include: ["*.ts"], ...extra });

/** up, and down referencing it, under a solution config (with a comment, as tsconfigs have). */
function chain(version: string | null): string {
  const root = tempDir("cpilot-tsc-graph-");
  if (version !== null) typescript(root, version);
  write(root, {
    "tsconfig.json":
      '{\n  // the solution\n  "files": [],\n  "references": [{ "path": "./up" }, { "path": "./down" },],\n}\n',
    "up/tsconfig.json": project(),
    "down/tsconfig.json": project({ references: [{ path: "../up" }] }),
  });
  return root;
}

const unreached = (root: string, run: string, named: string[], files = ["down/b.ts", "up/a.ts"]) =>
  commandStopsEarly(run, root, root)?.unreached(files, new Set(named));

test("TypeScript 5.5's tsc -b leaves the projects that reference a failing one unbuilt", () => {
  const root = chain("5.5.4");
  expect(unreached(root, "node_modules/.bin/tsc -b", ["up/a.ts"])).toEqual(["down/b.ts"]);
  expect(unreached(root, "npx tsc --build && vite build", ["up/a.ts"])).toEqual(["down/b.ts"]);
  expect(unreached(root, "node_modules/.bin/tsc -b --verbose up down", ["up/a.ts"])).toEqual([
    "down/b.ts",
  ]);
  // down failed itself: up, which it references, was built
  expect(unreached(root, "node_modules/.bin/tsc -b", ["down/c.ts"])).toEqual([]);
});

test("a project two references away from the failing one is left unbuilt too", () => {
  const root = chain("5.4.5");
  write(root, { "app/tsconfig.json": project({ references: [{ path: "../down" }] }) });
  expect(unreached(root, "node_modules/.bin/tsc -b . app", ["up/a.ts"], ["app/x.ts"])).toEqual([
    "app/x.ts",
  ]);
});

test("TypeScript 5.6 and 7 build on; --stopBuildOnErrors stops them", () => {
  for (const version of ["5.6.2", "7.0.2"]) {
    const root = chain(version);
    expect(commandStopsEarly("node_modules/.bin/tsc -b", root, root)).toBeUndefined();
    expect(unreached(root, "node_modules/.bin/tsc -b --stopBuildOnErrors", ["up/a.ts"])).toEqual([
      "down/b.ts",
    ]);
  }
  const root = chain(null);
  expect(commandStopsEarly(["tsgo", "-b"], root, root)).toBeUndefined();
  expect(commandStopsEarly(["tsgo", "--build", "--stopBuildOnErrors"], root, root)).toBeDefined();
});

test("a TypeScript whose version cannot be found may be before 5.6", () => {
  const root = chain(null);
  expect(unreached(root, "./no-such/tsc -b", ["up/a.ts"])).toEqual(["down/b.ts"]);
});

test("projects that reference none with files of their own cannot be left unbuilt", () => {
  const root = tempDir("cpilot-tsc-graph-");
  typescript(root, "5.5.4");
  // a Vite app's layout: two independent projects under a solution config
  write(root, {
    "tsconfig.json": JSON.stringify({
      files: [],
      references: [{ path: "./tsconfig.app.json" }, { path: "./tsconfig.node.json" }],
    }),
    "tsconfig.app.json": project(),
    "tsconfig.node.json": project(),
  });
  expect(commandStopsEarly("node_modules/.bin/tsc -b && vite build", root, root)).toBeUndefined();
});

test("a tsconfig that cannot be read: any file the run did not name may be unread", () => {
  const root = chain("5.5.4");
  write(root, { "down/tsconfig.json": "{ not json" });
  expect(unreached(root, "node_modules/.bin/tsc -b", ["up/a.ts"])).toEqual(["down/b.ts"]);
  expect(unreached(root, "node_modules/.bin/tsc -b", ["down/b.ts"])).toEqual(["up/a.ts"]);
});

test("a reference to a FIFO or a device is not read: it may have stopped anywhere", () => {
  const root = chain("5.5.4");
  expect(spawnSync("mkfifo", [join(root, "fifo.json")]).status).toBe(0);
  write(root, {
    "down/tsconfig.json": project({ references: [{ path: "../up" }, { path: "../fifo.json" }] }),
  });
  expect(unreached(root, "node_modules/.bin/tsc -b", ["down/b.ts"])).toEqual(["up/a.ts"]);
  write(root, { "down/tsconfig.json": project({ references: [{ path: "/dev/zero" }] }) });
  expect(unreached(root, "node_modules/.bin/tsc -b", ["down/b.ts"])).toEqual(["up/a.ts"]);
});

test("a file in no project, or a report on one, leaves every file not named possibly unread", () => {
  const root = chain("5.5.4");
  expect(unreached(root, "node_modules/.bin/tsc -b", ["up/a.ts"], ["tools/x.ts"])).toEqual([
    "tools/x.ts",
  ]);
  expect(unreached(root, "node_modules/.bin/tsc -b", ["/elsewhere/y.ts"])).toEqual([
    "down/b.ts",
    "up/a.ts",
  ]);
});

test("commands that are not a tsc build, and functions, read every file", () => {
  const root = chain("5.5.4");
  expect(commandStopsEarly("node_modules/.bin/tsc --noEmit -p down", root, root)).toBeUndefined();
  expect(commandStopsEarly("node_modules/.bin/tsc -p . && make -b", root, root)).toBeUndefined();
  expect(commandStopsEarly(() => 0, root, root)).toBeUndefined();
});
