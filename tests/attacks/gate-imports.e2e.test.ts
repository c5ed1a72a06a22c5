/**
 * Attacks on the protection of what a script config imports (src/gate/own-config.ts):
 * each import form Bun loads must protect the file it loads, through the compiled binary.
 */
import { describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { attackProject, preWrite, reasonOf, verdict } from "./_gate-attack.ts";

const RULES = 'export const rules = [{ action: "deny", pattern: "secrets/**" }];\n';
const config = (head: string) => `${head}\nexport default { callbacks: [], gate: { rules } };\n`;

interface Case {
  name: string;
  files: Record<string, string>;
  /** The file the config really loads, which an agent could rewrite to empty the rules. */
  target: string;
  link?: [from: string, to: string];
}

const CASES: Case[] = [
  {
    name: 'TS ESM style: "./rules.js" loads rules.ts',
    files: {
      "callbacks.config.ts": config('import { rules } from "./rules.js";'),
      "rules.ts": RULES,
    },
    target: "rules.ts",
  },
  {
    name: 'require("./rules.ts")',
    files: {
      "callbacks.config.ts": config('const { rules } = require("./rules.ts");'),
      "rules.ts": RULES,
    },
    target: "rules.ts",
  },
  {
    name: 'import r = require("./rules.ts")',
    files: {
      "callbacks.config.ts": config('import r = require("./rules.ts");\nconst rules = r.rules;'),
      "rules.ts": RULES,
    },
    target: "rules.ts",
  },
  {
    name: '"./rules" loads rules.tsx',
    files: {
      "callbacks.config.ts": config('import { rules } from "./rules";'),
      "rules.tsx": RULES,
    },
    target: "rules.tsx",
  },
  {
    name: "a .cjs module's own require, one level down",
    files: {
      "callbacks.config.ts": config('import { rules } from "./rules.cjs";'),
      "rules.cjs": 'module.exports = require("./deep.cjs");\n',
      "deep.cjs": 'module.exports = { rules: [{ action: "deny", pattern: "secrets/**" }] };\n',
    },
    target: "deep.cjs",
  },
  {
    name: '"./lib" loads lib/index.mts',
    files: {
      "callbacks.config.ts": config('import { rules } from "./lib";'),
      "lib/index.mts": RULES,
    },
    target: "lib/index.mts",
  },
  {
    name: "an import of a computed name: each relative name the file spells",
    files: {
      "callbacks.config.ts":
        'const name = "./rules.ts";\nconst { rules } = await import(name);\nexport default { callbacks: [], gate: { rules } };\n',
      "rules.ts": RULES,
    },
    target: "rules.ts",
  },
  {
    name: "an installed package: a file its entry requires",
    files: {
      "callbacks.config.ts": config('import { rules } from "rules-pkg";'),
      "node_modules/rules-pkg/package.json": '{ "name": "rules-pkg", "main": "index.js" }\n',
      "node_modules/rules-pkg/index.js": 'module.exports = require("./lib/rules.js");\n',
      "node_modules/rules-pkg/lib/rules.js": `module.exports = { rules: [{ action: "deny", pattern: "secrets/**" }] };\n`,
    },
    target: "node_modules/rules-pkg/lib/rules.js",
  },
  {
    name: "an installed package: its package.json, which names its entry",
    files: {
      "callbacks.config.ts": config('import { rules } from "@acme/rules";'),
      "node_modules/@acme/rules/package.json": '{ "name": "@acme/rules", "main": "index.js" }\n',
      "node_modules/@acme/rules/index.js": `module.exports = { rules: [{ action: "deny", pattern: "secrets/**" }] };\n`,
    },
    target: "node_modules/@acme/rules/package.json",
  },
  {
    name: "an import through a symlinked folder: the file where it really is",
    files: {
      "callbacks.config.ts": config('import { rules } from "./lib/rules.ts";'),
      "shared/rules.ts": RULES,
    },
    target: "shared/rules.ts",
    link: ["shared", "lib"],
  },
];

describe("every file a script config loads is protected", () => {
  for (const c of CASES) {
    test(c.name, async () => {
      const p = attackProject({ ...c.files, "secrets/x": "s\n" });
      if (c.link) symlinkSync(p.path(c.link[0]), p.path(c.link[1]));
      // the config loads and its rule holds: the import form works
      const held = await p.hook("claude", preWrite("claude", p.dir, "secrets/x"));
      expect(reasonOf(held)).toContain('gate rule "secrets/**"');
      const r = await p.hook("claude", preWrite("claude", p.dir, c.target));
      expect(verdict("claude", r)).toBe("ask");
      expect(reasonOf(r)).toContain("a file cpilot's config imports");
    }, 30_000);
  }

  test("a normal TS config still lets ordinary files be written", async () => {
    const p = attackProject({
      "callbacks.config.ts": config('import { rules } from "./rules.js";'),
      "rules.ts": RULES,
      "src/app.ts": "export {};\n",
    });
    const r = await p.hook("claude", preWrite("claude", p.dir, "src/app.ts"));
    expect(verdict("claude", r)).toBe("allow");
  }, 30_000);
});

test("past the files the scan reads, every script file is protected, and other files are not", async () => {
  const files: Record<string, string> = {
    "callbacks.config.ts":
      'import { rules } from "./m0.ts";\nexport default { callbacks: [], gate: { rules } };\n',
    "m230.ts": RULES,
  };
  for (let i = 0; i < 230; i++) files[`m${i}.ts`] = `export { rules } from "./m${i + 1}.ts";\n`;
  const p = attackProject(files);
  const deep = await p.hook("claude", preWrite("claude", p.dir, "m230.ts"));
  expect(verdict("claude", deep)).toBe("ask");
  expect(reasonOf(deep)).toContain("every script file is protected");
  const other = await p.hook("claude", preWrite("claude", p.dir, "notes.md"));
  expect(verdict("claude", other)).toBe("allow");
}, 60_000);
