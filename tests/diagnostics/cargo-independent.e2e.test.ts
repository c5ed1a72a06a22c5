/**
 * Without `--keep-going`, cargo starts no crate after one fails, even a crate that does not
 * depend on it: with an old denied lint in crate base, the agent's compile error in crate
 * solo (which depends on nothing) is never printed when cargo happened to build base first.
 * `-j1` makes that order certain here (cargo builds first the crate more crates wait for);
 * on a busy machine, or a workspace with more crates than jobs, it happens on its own. The
 * agent's error must reach it: cpilot runs clippy again for crate solo alone.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { batchEndContext } from "../agents/claude/_helpers.ts";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo } from "../helpers/tmp.ts";

const CARGO = spawnSync("sh", ["-c", "command -v cargo"], { encoding: "utf8" }).stdout.trim();
const BLOCKS = "checks failed after your last edits";

const hook = batchEndContext;

const manifest = (name: string, deps = "") =>
  `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n${deps}`;

/** base has an old denied lint and a dependent, user; solo depends on nothing. */
function workspace(): string {
  const root = committedRepo("cpilot-cargo-solo-", {
    ".gitignore": ".cpilot/\ntarget/\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        {
          name: "clippy",
          pattern: "*.rs",
          run: `PATH=${join(CARGO, "..")}:$PATH ${CARGO} clippy -j1 --quiet --message-format short -- -D warnings`,
          timeout: 300,
        },
      ],
    }),
    "Cargo.toml": '[workspace]\nmembers = ["base", "user", "solo"]\nresolver = "2"\n',
    "base/Cargo.toml": manifest("base"),
    "base/src/lib.rs": "pub fn one() -> i32 {\n    return 1;\n}\n",
    "user/Cargo.toml": manifest("user", '\n[dependencies]\nbase = { path = "../base" }\n'),
    "user/src/lib.rs": "pub fn two() -> i32 {\n    base::one() + 1\n}\n",
    "solo/Cargo.toml": manifest("solo"),
    "solo/src/lib.rs": "pub fn three() -> i32 {\n    3\n}\n",
  });
  spawnSync(CARGO, ["generate-lockfile", "--offline", "--quiet"], { cwd: root });
  spawnSync("git", ["add", "Cargo.lock"], { cwd: root });
  spawnSync("git", ["commit", "-qm", "lock"], { cwd: root });
  return root;
}

test.skipIf(CARGO === "")(
  "cargo stopped at an old lint in a crate the edited one does not depend on: clippy runs again for the edited crate, whose error blocks",
  () => {
    const root = workspace();
    const all = cpilot(["check", "--all"], { cwd: root });
    expect(all.stderr).toContain("base/src/lib.rs:2:5");
    writeFileSync(join(root, "solo/src/lib.rs"), 'pub fn three() -> i32 {\n    "3"\n}\n');
    const told = hook(root, "solo/src/lib.rs");
    expect(told).toContain(BLOCKS);
    expect(told).toContain("cpilot ran it again for crate solo alone (-p solo --no-deps");
    expect(told).toContain("solo/src/lib.rs:2:5");
    expect(told).not.toContain("were not checked");
  },
  300_000,
);
