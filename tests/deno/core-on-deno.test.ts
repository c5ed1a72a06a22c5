import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const REPO = join(import.meta.dir, "..", "..");
const DENO = join(REPO, "node_modules", ".bin", "deno");

// The core uses node: APIs only, so Deno runs it from source: this keeps it that way.
test("Deno runs cpilot check from source: config, matching, process groups, timeouts", () => {
  const root = tempDir("cpilot-deno-", { git: true });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        { name: "ok", pattern: "*.ts", run: 'printf "%s\\n" "$@" > seen.txt', timeout: 10 },
        { name: "slow", pattern: "*.ts", run: "sleep 30 & echo $! > gc.pid; wait", timeout: 0.5 },
      ],
    }),
    "src/a b.ts": "",
  });
  spawnSync("git", ["add", "-A"], { cwd: root }); // --all lists what git tracks
  const r = spawnSync(
    DENO,
    ["run", "-A", "--node-modules-dir=manual", join(REPO, "main.ts"), "check", "--all", "--json"],
    {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
      timeout: 60_000,
    },
  );
  expect(r.status).toBe(1);
  const out = JSON.parse(r.stdout);
  const by = Object.fromEntries(
    out.runs.map((x: { callback: string; status: string }) => [x.callback, x.status]),
  );
  expect(by).toEqual({ ok: "passed", slow: "timed_out" });
  expect(readFileSync(join(root, "seen.txt"), "utf8")).toBe("src/a b.ts\n");
  const gc = Number(readFileSync(join(root, "gc.pid"), "utf8"));
  expect(
    existsSync(`/proc/${gc}`) && !readFileSync(`/proc/${gc}/stat`, "utf8").includes(") Z"),
  ).toBe(false);
});
