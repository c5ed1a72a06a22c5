import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

// A compiled Bun binary reads .env and bunfig.toml from its cwd unless built not to.
test("the binary loads neither the project's .env nor its bunfig.toml", () => {
  const root = tempDir();
  writeFiles(root, {
    ".env": "SECRET_FROM_DOTENV=leaked\n",
    "bunfig.toml": 'preload = ["./preload.ts"]\n',
    "preload.ts": `require("node:fs").writeFileSync(${JSON.stringify(join(root, "preloaded"))}, "x");\n`,
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "t", pattern: "*.txt", run: 'echo "[$SECRET_FROM_DOTENV]"', timeout: 5 }],
    }),
    "a.txt": "",
  });
  const out = JSON.parse(cpilot(["check", "a.txt", "--json"], { cwd: root }).stdout);
  expect(out.runs[0].tail).toEqual(["[]"]);
  expect(existsSync(join(root, "preloaded"))).toBe(false);
});
