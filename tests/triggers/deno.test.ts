import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { takeNotices } from "../../src/agent-session/inbox.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import { MAIN } from "./_helpers.ts";

const DENO = join(import.meta.dir, "..", "..", "node_modules", ".bin", "deno");

// Hooks use node: APIs only: Deno runs them from source, notify and run actions included.
test("Deno runs triggers from source", () => {
  const root = tempDir("cpilot-deno-hooks-", { git: true });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        {
          name: "t",
          pattern: "*.ts",
          run: "echo 'error TS1: no'; echo more; exit 1",
          timeout: 10,
          // the run's end fires the window at once: a long delay holds both lines
          onOutput: { match: "error TS\\d+", delay: 5, action: "notify" },
          onExit: { when: "failure", action: "run", callback: "hints" },
        },
        {
          name: "hints",
          pattern: "none",
          run: 'echo "hint $CP_HOOK_DEPTH: $CP_HOOK_OUTPUT"',
          timeout: 5,
        },
      ],
    }),
    "a.ts": "",
  });
  spawnSync("git", ["add", "-A"], { cwd: root }); // --all lists what git tracks
  const r = spawnSync(
    DENO,
    ["run", "-A", "--node-modules-dir=manual", MAIN, "check", "--all", "--json"],
    {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
      timeout: 60_000,
    },
  );
  const outcome = JSON.parse(r.stdout) as { runs: { callback: string; tail: string[] }[] };
  expect(outcome.runs.map((run) => run.callback)).toEqual(["t", "hints"]);
  expect(outcome.runs[1]?.tail).toEqual(["hint 1: error TS1: no", "more"]);
  const [notice] = takeNotices(root, "any-session");
  expect(notice?.text).toContain("error TS1: no\nmore");
});
