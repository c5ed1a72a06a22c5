import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
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

const cargo = spawnSync("sh", ["-c", "command -v cargo"], { encoding: "utf8" }).stdout.trim();
const withCargo = { PATH: `${dirname(cargo)}:/usr/local/bin:/usr/bin:/bin` };

test.skipIf(!cargo)(
  "a Cargo workspace's `cargo fmt --all` is proven too, counting files, not hunks; with rustfmt.toml's edition, rustfmt runs per file",
  () => {
    const member = (name: string) => ({
      [`${name}/Cargo.toml`]: `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n`,
    });
    // two hunks far apart in one file: one file cargo fmt would rewrite, of three
    const unformatted = `pub fn  a( ) {}\n${"// keep\n".repeat(12)}pub fn   b(){}\n`;
    const files = {
      "Cargo.toml": '[workspace]\nmembers = ["one", "two"]\nresolver = "2"\n',
      ".gitignore": "target/\n",
      ...member("one"),
      ...member("two"),
      "one/src/lib.rs": "pub fn one() {}\n",
      "one/src/extra.rs": unformatted,
      "two/src/lib.rs": "pub fn two() {}\n",
    };
    files["one/src/lib.rs"] = "pub mod extra;\npub fn one() {}\n";
    const root = committedRepo("cpilot-prove-cargo-fmt-", files);
    const r = cpilot(["init", "--yes", "--format", "json"], { cwd: root, env: withCargo });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("cargo fmt --all");
    expect(r.stderr).toContain("rustfmt --check: would rewrite 1 of 3 files now");
    const withConfig = committedRepo("cpilot-prove-rustfmt-toml-", {
      ...files,
      "rustfmt.toml": 'edition = "2021"\n',
    });
    const config = cpilot(["init", "--yes", "--format", "json"], {
      cwd: withConfig,
      env: withCargo,
    });
    expect(config.stderr).toContain("rustfmt --edition 2021 {files}");
    expect(config.stderr).toContain("rustfmt.toml (edition 2021)");
    expect(config.stderr).toContain("rustfmt --check: would rewrite 1 of 3 files now");
  },
  120_000,
);
