import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

/** Run the binary on a pseudo-terminal (util-linux `script`), as a person would. */
function onTty(root: string, args: string, env: Record<string, string> = {}): string {
  const r = spawnSync("script", ["-qec", `${cpilotBinary()} ${args}`, "/dev/null"], {
    cwd: root,
    encoding: "utf8",
    env: { PATH: "/usr/bin:/bin", TERM: "xterm", ...runtimeEnv(), ...env },
    timeout: 30_000,
  });
  return r.stdout;
}

function project(): string {
  const root = tempDir();
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        { name: "slow", pattern: "*.txt", run: "sleep 0.4", timeout: 5 },
        { name: "bad", pattern: "*.txt", run: "echo broken; exit 1", timeout: 5 },
      ],
    }),
    "a.txt": "",
  });
  return root;
}

test("on a terminal: colors and a live progress line", () => {
  const out = onTty(project(), "check a.txt");
  expect(out).toContain("\x1b[31m"); // red for the failure
  expect(out).toMatch(/running [a-z, ]+ · \d\/2 done/);
  expect(out).toContain("broken");
});

test("NO_COLOR turns colors off even on a terminal", () => {
  const out = onTty(project(), "check a.txt", { NO_COLOR: "1" });
  expect(out).not.toContain("\x1b[31m");
  expect(out).toContain("✗ bad");
});

test("bash callbacks never source the user's rc files, even with a socket for stdin", () => {
  const root = tempDir();
  const home = tempDir("cpilot-home-");
  writeFiles(home, {
    ".bashrc": "echo RC-WAS-SOURCED\n",
    ".bash_profile": "echo PROFILE-WAS-SOURCED\n",
  });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "t", pattern: "*.txt", run: "echo ran", timeout: 5 }],
    }),
    "a.txt": "",
  });
  const out = onTty(root, "check a.txt --json", { HOME: home });
  expect(out).toContain('"tail":["ran"]');
  expect(out).not.toContain("SOURCED");
});
