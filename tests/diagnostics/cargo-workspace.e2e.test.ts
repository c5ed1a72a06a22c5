/**
 * A Cargo workspace whose upstream crate has an old denied lint: `cargo clippy -- -D warnings`
 * stops there and never compiles the crate that depends on it. `check --all` records what
 * that stopped run read (the lint, on the project as committed), so the lint is known old.
 * `check --new-only` runs clippy again for the changed crate too, and that run decides. The agent's compile error in
 * that crate must not pass as "already there": cpilot runs clippy again for the edited crate
 * alone (`-p down --no-deps`), tells that run's result first and says plainly why it ran,
 * the agent's compile error blocks, and once the old lint is fixed the error comes as its
 * own (the file was never recorded clean).
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

/** A committed workspace: `down` depends on `up`, whose code has an old denied lint. */
function workspace(): string {
  const root = committedRepo("cpilot-cargo-ws-", {
    ".gitignore": ".cpilot/\ntarget/\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        {
          name: "clippy",
          pattern: "*.rs",
          run: `PATH=${join(CARGO, "..")}:$PATH ${CARGO} clippy --quiet -- -D warnings`,
          timeout: 300,
        },
      ],
    }),
    "Cargo.toml": '[workspace]\nmembers = ["up", "down"]\nresolver = "2"\n',
    "up/Cargo.toml": '[package]\nname = "up"\nversion = "0.1.0"\nedition = "2021"\n',
    "up/src/lib.rs": "pub fn one() -> i32 {\n    return 1;\n}\n",
    "down/Cargo.toml":
      '[package]\nname = "down"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nup = { path = "../up" }\n',
    "down/src/lib.rs": "pub fn two() -> i32 {\n    up::one() + 1\n}\n",
  });
  // Committed as a project keeps it: the check then reads the project as committed.
  spawnSync(CARGO, ["generate-lockfile", "--offline", "--quiet"], { cwd: root });
  spawnSync("git", ["add", "Cargo.lock"], { cwd: root });
  spawnSync("git", ["commit", "-qm", "lock"], { cwd: root });
  return root;
}

test.skipIf(CARGO === "")(
  "clippy stopped at an upstream crate's old lint: the edited crate is run again alone, its error told first, and it blocks",
  () => {
    const root = workspace();
    // The project as committed, checked: the old lint is known old.
    expect(cpilot(["check", "--all"], { cwd: root }).code).toBe(1);
    writeFileSync(join(root, "down/src/lib.rs"), 'pub fn two() -> i32 {\n    up::one() + "1"\n}\n');
    const told = hook(root, "down/src/lib.rs");
    expect(told).toContain(BLOCKS);
    // cpilot ran it again for the edited crate alone: the agent's error reaches it, told
    // first, and the agent reads what happened, not that its edits were left unchecked
    expect(told).toContain(
      "cpilot ran it again for crate down alone (-p down --no-deps: without the lints of the crates they depend on), because its run",
    );
    expect(told).toContain("stopped at other errors in crate up");
    expect(told).toContain("down/src/lib.rs:2:");
    expect(told).toContain(
      "before it reached down/src/lib.rs; cpilot ran it again for crate down alone (run",
    );
    expect(told).toContain("which reached your edits there and failed");
    expect(told).toContain("up/src/lib.rs:2:5");
    // `check --all` stopped at that lint, and its record still says what it read: the lint is
    // known old, not "cannot tell"
    expect(told).toContain("its 1 diagnostic was already there before your edit:");
    expect(told).not.toContain("had not read before");
    expect(told.indexOf("down/src/lib.rs:2:")).toBeLessThan(told.indexOf("up/src/lib.rs:2:5"));
    expect(told).not.toContain("were not checked");
    // The agent fixes the old lint, as told: now the check reaches its file, and its error
    // is its own (the unreached file was never recorded clean).
    writeFileSync(join(root, "up/src/lib.rs"), "pub fn one() -> i32 {\n    1\n}\n");
    const then = hook(root, "up/src/lib.rs");
    expect(then).toContain(BLOCKS);
    expect(then).toContain("down/src/lib.rs:2:");
    expect(then).not.toContain("already there");
  },
  300_000,
);

test.skipIf(CARGO === "")(
  "clippy stopped at an upstream crate's old lint: the run again for the edited crate passes, and the agent is told so",
  () => {
    const root = workspace();
    expect(cpilot(["check", "--all"], { cwd: root }).code).toBe(1);
    writeFileSync(join(root, "down/src/lib.rs"), "pub fn two() -> i32 {\n    up::one() + 2\n}\n");
    const told = hook(root, "down/src/lib.rs");
    expect(told).toContain(
      "before it reached down/src/lib.rs; cpilot ran it again for crate down alone (run",
    );
    expect(told).toContain("which reached your edits there and passed");
    expect(told).toContain("up/src/lib.rs:2:5");
    expect(told).not.toContain("down/src/lib.rs:2:");
    expect(told).not.toContain("were not checked");
  },
  300_000,
);

test.skipIf(CARGO === "")(
  "check --new-only: clippy stopped at the upstream crate's old lint is run again for the changed crate, whose error fails the check",
  () => {
    const root = workspace();
    // Old errors only, on the project as committed: --new-only passes.
    expect(cpilot(["check", "--all", "--new-only"], { cwd: root }).code).toBe(0);
    writeFileSync(join(root, "down/src/lib.rs"), 'pub fn two() -> i32 {\n    up::one() + "1"\n}\n');
    const failed = cpilot(["check", "--new-only"], { cwd: root });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("cpilot ran it again for crate down alone (-p down --no-deps");
    expect(failed.stderr).toContain("new since HEAD:");
    expect(failed.stderr).toContain("down/src/lib.rs:2:15 error E0277");
    expect(failed.stderr).toContain(
      "it stopped at other errors before it reached down/src/lib.rs; cpilot ran it again for crate down alone (run",
    );
    expect(failed.stderr).not.toContain("were not checked");
    // A change that compiles: the run again passes, and so does --new-only.
    writeFileSync(join(root, "down/src/lib.rs"), "pub fn two() -> i32 {\n    up::one() + 2\n}\n");
    const passed = cpilot(["check", "--new-only"], { cwd: root });
    expect(passed.stderr).toContain("which reached your edits there and passed");
    expect(passed.code).toBe(0);
  },
  300_000,
);

test.skipIf(CARGO === "")(
  "check --staged --new-only (the pre-commit path): the run again for the staged crate finds its error",
  () => {
    const root = workspace();
    expect(cpilot(["check", "--all"], { cwd: root }).code).toBe(1);
    writeFileSync(join(root, "down/src/lib.rs"), 'pub fn two() -> i32 {\n    up::one() + "1"\n}\n');
    spawnSync("git", ["add", "down/src/lib.rs"], { cwd: root });
    const r = cpilot(["check", "--staged", "--new-only"], { cwd: root });
    expect(r.stderr).toContain("cpilot ran it again for crate down alone (-p down --no-deps");
    expect(r.stderr).toContain("down/src/lib.rs:2:15 error E0277");
    expect(r.code).toBe(1);
  },
  300_000,
);
