/** The watcher uses node: APIs only: Deno runs `cpilot run` from source with it. */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/tmp.ts";

const REPO = join(import.meta.dir, "..", "..");
const DENO = join(REPO, "node_modules", ".bin", "deno");

test("Deno runs cpilot run's watcher from source", () => {
  const root = tempDir("cpilot-watch-deno-", { git: true });
  try {
    writeFileSync(
      join(root, "callbacks.config.json"),
      JSON.stringify({
        callbacks: [
          { name: "lint", pattern: "*.ts", run: "grep -H BAD a.ts && exit 1; exit 0", timeout: 10 },
        ],
      }),
    );
    const r = spawnSync(
      DENO,
      [
        "run",
        "-A",
        "--node-modules-dir=manual",
        join(REPO, "main.ts"),
        "run",
        "--",
        "sh",
        "-c",
        "echo BAD > a.ts; sleep 1; exit 4",
      ],
      {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
        timeout: 60_000,
      },
    );
    expect(r.status).toBe(4);
    expect(r.stderr).toContain("cpilot: ✗ 'lint' failed on a.ts");
    expect(readFileSync(join(root, ".cpilot", "last-results.md"), "utf8")).toContain("a.ts:BAD");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 60_000);
