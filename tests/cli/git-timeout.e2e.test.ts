import { expect, test } from "bun:test";
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { processAlive, tempDir, waitFor, writeFiles } from "../helpers/tmp.ts";

/**
 * A git that never answers (a file system that stopped responding, a hanging hook): every
 * way `cpilot check` asks git gives up after CPILOT_GIT_TIMEOUT_MS with a clear error, and
 * leaves no git behind.
 */
function hangingGit(): { bin: string; pids: () => number[] } {
  const bin = tempDir("cpilot-fake-git-");
  const pidsFile = join(bin, "pids");
  writeFiles(bin, { git: `#!/bin/sh\necho $$ >> '${pidsFile}'\nexec sleep 600\n` });
  chmodSync(join(bin, "git"), 0o755);
  const pids = () => {
    try {
      return readFileSync(pidsFile, "utf8").trim().split("\n").map(Number);
    } catch {
      return [];
    }
  };
  return { bin, pids };
}

for (const args of [["--staged"], ["--all"], ["--changed"]]) {
  test(`check ${args.join(" ")}: a git that hangs is stopped and named`, async () => {
    const root = tempDir("cpilot-git-timeout-");
    writeFiles(root, {
      ".git/HEAD": "ref: refs/heads/main\n", // a repository, as far as a look at the folder goes
      "callbacks.config.json": JSON.stringify({
        callbacks: [{ name: "t", pattern: "*.ts", run: ["true"], timeout: 5 }],
      }),
      "a.ts": "",
    });
    // The timeout has to come after the fake git wrote its pid: a machine too busy to start
    // it in time tries again with a longer one.
    for (const ms of [400, 2000, 10_000]) {
      const git = hangingGit();
      // git would hang ten minutes: a cpilot that waited for it is killed at 60 s, with no exit code
      const r = cpilot(["check", ...args], {
        cwd: root,
        env: { PATH: `${git.bin}:/usr/local/bin:/usr/bin:/bin`, CPILOT_GIT_TIMEOUT_MS: String(ms) },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`git did not answer within ${ms / 1000} s and was stopped`);
      expect(r.stderr).toContain("CPILOT_GIT_TIMEOUT_MS");
      if (git.pids().length === 0) continue;
      // killed, it may take the kernel a moment to show it gone on a busy machine
      for (const pid of git.pids())
        expect(await waitFor(() => !processAlive(pid), 20_000)).toBe(true);
      return;
    }
    throw new Error("the fake git never wrote its pid");
  });
}
