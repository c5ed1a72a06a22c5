import { expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo, tempDir } from "../helpers/tmp.ts";

const BIOME = join(import.meta.dir, "..", "..", "node_modules", ".bin", "biome");

/**
 * Misformatted, with imports out of order and a function expression: biome's safe fixes
 * (organize imports, useArrowFunction) would rewrite it beyond formatting.
 */
const SOURCE = `import { b } from "./b.ts";
import { a } from "./a.ts";

export const add = function (x: number) {
  return x + a   + b;
};
`;

function project(lint: string): string {
  const root = committedRepo("cpilot-biome-run-", {
    // as biome formats JSON, so that only the source has something to format
    "package.json": `${JSON.stringify(
      {
        name: "x",
        private: true,
        scripts: { lint },
        devDependencies: { "@biomejs/biome": "2.5.15" },
      },
      null,
      "\t",
    )}\n`,
    "biome.json": `${JSON.stringify({ vcs: { enabled: true, clientKind: "git", useIgnoreFile: true } }, null, "\t")}\n`,
    ".gitignore": "node_modules/\n",
    "src/main.ts": SOURCE,
    "src/a.ts": "export const a = 1;\n",
    "src/b.ts": "export const b = 2;\n",
  });
  mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
  symlinkSync(BIOME, join(root, "node_modules", ".bin", "biome"));
  return root;
}

/** What the real biome makes of SOURCE with `args`, in a copy of the project. */
function biomeOutput(root: string, args: string[]): string {
  const copy = tempDir("cpilot-biome-copy-");
  cpSync(root, copy, { recursive: true, filter: (src) => !src.includes("/node_modules") });
  spawnSync(BIOME, [...args, "src/main.ts"], { cwd: copy });
  return readFileSync(join(copy, "src", "main.ts"), "utf8");
}

test("a project that runs `biome check` without --write: the first check --all only formats, and reports the lint", () => {
  const root = project("biome check .");
  const formatted = biomeOutput(root, ["format", "--write"]);
  const fixed = biomeOutput(root, ["check", "--write"]);
  // the real biome tells the two apart on this file, else the test proves nothing
  expect(formatted).not.toBe(SOURCE);
  expect(fixed).not.toBe(formatted);
  expect(cpilot(["init", "--yes", "--format", "json"], { cwd: root }).code).toBe(0);
  const r = cpilot(["check", "--all"], { cwd: root });
  expect(readFileSync(join(root, "src", "main.ts"), "utf8")).toBe(formatted);
  const config = JSON.parse(readFileSync(join(root, "callbacks.config.json"), "utf8")) as {
    callbacks: { name: string; run: string[]; fixes?: boolean }[];
  };
  expect(config.callbacks.map((c) => [c.name, c.run.slice(1, 3).join(" "), c.fixes])).toEqual([
    ["biome-format", "format --write", true],
    ["biome", "check --no-errors-on-unmatched", undefined],
  ]);
  // what biome's own `check` finds is told, not applied
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("useArrowFunction");
  const changed = execFileSync("git", ["diff", "--name-only", "--", ".", ":!.gitignore"], {
    cwd: root,
    encoding: "utf8",
  });
  expect(changed).toBe("src/main.ts\n");
}, 120_000);

test("a project that runs `biome check --write`: its safe fixes are the project's, so the first check --all applies them", () => {
  const root = project("biome check --write .");
  const fixed = biomeOutput(root, ["check", "--write"]);
  expect(cpilot(["init", "--yes", "--format", "json"], { cwd: root }).code).toBe(0);
  const config = JSON.parse(readFileSync(join(root, "callbacks.config.json"), "utf8")) as {
    callbacks: { name: string; run: string[]; fixes?: boolean }[];
  };
  expect(config.callbacks.map((c) => [c.name, c.run.slice(1, 3).join(" "), c.fixes])).toEqual([
    ["biome", "check --write", true],
  ]);
  cpilot(["check", "--all"], { cwd: root });
  expect(readFileSync(join(root, "src", "main.ts"), "utf8")).toBe(fixed);
}, 120_000);
