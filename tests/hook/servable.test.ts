// Which config scripts a hook server may keep loaded: only plain data. When in doubt, no:
// a refused config is answered in-process, which is slower but never stale.
import { describe, expect, test } from "bun:test";
import { ConfigRefused } from "../../src/config/load.ts";
import { scriptProblem } from "../../src/config/plain-script.ts";
import { assertServable } from "../../src/hook/servable.ts";

describe("scriptProblem", () => {
  test("a config that imports only cpilot and holds data qualifies", () => {
    const source = [
      'import { defineConfig, defineCallback } from "cpilot";',
      "export default defineConfig({",
      '  callbacks: [{ name: "fmt", pattern: ["*.ts"], run: ["biome", "check", "{files}"], timeout: 60 }],',
      "});",
    ].join("\n");
    expect(scriptProblem(source)).toBeNull();
  });

  test.each([
    ['import { x } from "./helper.ts";', 'it imports "./helper.ts"'],
    ['import fs from "node:fs";', 'it imports "node:fs"'],
    ['const m = await import("../shared/callbacks.ts");', 'it imports "../shared/callbacks.ts"'],
    ['export * from "./more.ts";', 'it imports "./more.ts"'],
    ["const slow = process.env.SLOW ? 300 : 60;", "it uses process"],
    ["const ci = Bun.env.CI;", "it uses Bun"],
    ["const here = import.meta.dir;", "it uses import.meta"],
    ["const stamp = Date.now();", "it uses Date"],
    ['const cfg = require("./x.json");', "it uses require"],
    ["const id = crypto.randomUUID();", "it uses crypto"],
    ["const t = performance.now();", "it uses performance"],
    ['const list = await (await fetch("http://127.0.0.1/x")).json();', "it uses fetch"],
    ["const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;", "it uses Intl"],
    ["const g = global.x;", "it uses global"],
    [
      'const where = "./helper.ts";\nconst h = await import(where);',
      "it imports a module whose name it computes",
    ],
    ["const env = \\u0070rocess.env;", "it spells a name with a \\u escape"],
    ["const F = [].constructor.constructor;", "it uses constructor"],
    ['import { x } from /* the words */ "./x";', "it names an imported module behind a comment"],
  ])("%s → refused (%s)", (line, problem) => {
    expect(scriptProblem(`import { defineConfig } from "cpilot";\n${line}\n`)).toBe(problem);
  });
});

describe("assertServable", () => {
  test("a run or hook written as a function is refused, wherever it sits", () => {
    const value = {
      callbacks: [
        { name: "t", run: ["true"] },
        { name: "f", run: () => 0 },
      ],
    };
    expect(() => assertServable("/p/callbacks.config.json", value)).toThrow(ConfigRefused);
    expect(() => assertServable("/p/callbacks.config.json", value)).toThrow(
      "callbacks.1.run is a function",
    );
  });

  test("plain data passes", () => {
    const value = { callbacks: [{ name: "t", run: ["true"], pattern: "*.ts", env: { A: "1" } }] };
    expect(() => assertServable("/p/callbacks.config.yaml", value)).not.toThrow();
  });
});
