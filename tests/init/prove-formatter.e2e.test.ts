import { expect, test } from "bun:test";
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo } from "../helpers/tmp.ts";

/**
 * A biome project with a .prettierrc left behind. The tools are stand-ins (no prettier or
 * biome install in the test): prettier's check mode names every file it is given, as the
 * real one does on code biome formats differently; biome's names none.
 */
test("init runs each formatter in check mode first: one that would rewrite most of the project is left out", () => {
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ scripts: { check: "biome check --write ." } }),
    "biome.json": "{}\n",
    ".prettierrc": "{}\n",
    "node_modules/.bin/prettier":
      '#!/bin/sh\nfor a in "$@"; do case "$a" in -*) ;; *) echo "$a";; esac; done\nexit 1\n',
    "node_modules/.bin/biome": "#!/bin/sh\nexit 0\n",
    ".gitignore": "node_modules/\n",
  };
  for (let i = 0; i < 12; i++) files[`src/m${i}.ts`] = `export const x${i} = ${i};\n`;
  const root = committedRepo("cpilot-prove-fmt-", files);
  for (const tool of ["prettier", "biome"]) chmodSync(join(root, "node_modules/.bin", tool), 0o755);
  const r = cpilot(["init", "--yes", "--format", "json"], { cwd: root });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    "prettier: left out, prettier --check: would rewrite 12 of 12 files now: not the formatter this project is formatted with",
  );
  expect(r.stderr).toContain("biome --check: would rewrite 0 of");
  const config = JSON.parse(readFileSync(join(root, "callbacks.config.json"), "utf8"));
  expect(config.callbacks.map((c: { name: string }) => c.name)).toEqual(["biome"]);
});
