import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot, cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

function project(): string {
  const root = tempDir("cpilot-add-overlap-");
  writeFiles(root, {
    "Cargo.toml": '[package]\nname = "x"\nedition = "2024"\n',
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        { name: "cargo-check", pattern: "*.rs", run: "cargo check --quiet", timeout: 60 },
      ],
    }),
  });
  return root;
}

const ADD = ["add", "--offline", "run cargo clippy after rust edits"];

test("add clippy beside cargo check: with --yes it saves and says how to keep only one", () => {
  const root = project();
  const r = cpilot([...ADD, "--yes"], { cwd: root });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain('note: "cargo-check" also runs cargo check');
  expect(r.stderr).toContain("`cpilot disable cargo-check`");
  expect(existsSync(join(root, ".cpilot", "state.json"))).toBe(false);
}, 60_000);

test("add clippy beside cargo check on a terminal: offers to replace it, and a yes pauses it here", () => {
  const root = project();
  // Two answers typed ahead on a pseudo-terminal: save, then replace.
  const r = spawnSync(
    "script",
    ["-qec", `${cpilotBinary()} ${ADD.map((a) => `'${a}'`).join(" ")}`, "/dev/null"],
    {
      cwd: root,
      input: "y\ny\n",
      encoding: "utf8",
      env: { PATH: "/usr/bin:/bin", TERM: "xterm", NO_COLOR: "1", HOME: root, ...runtimeEnv() },
      timeout: 30_000,
    },
  );
  expect(r.stdout).toContain(
    '"cargo-check" already runs cargo check, which "cargo-clippy" does too. Replace it?',
  );
  const state = JSON.parse(readFileSync(join(root, ".cpilot", "state.json"), "utf8"));
  expect(state.disabled).toEqual(["cargo-check"]);
  const listed = JSON.parse(cpilot(["list", "--json"], { cwd: root }).stdout) as {
    callbacks: { name: string; enabled: boolean }[];
  };
  expect(listed.callbacks.map((c) => [c.name, c.enabled])).toEqual([
    ["cargo-check", false],
    ["cargo-clippy", true],
  ]);
}, 60_000);
