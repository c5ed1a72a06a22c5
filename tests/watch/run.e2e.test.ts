/** `cpilot run -- <command>` for an agent without hooks: the built binary, a real watcher, real writes. */
import { afterEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binary } from "../agents/claude/_helpers.ts";
import { runtimeEnv } from "../helpers/binary.ts";
import { tempDir, waitFor } from "../helpers/tmp.ts";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function project(callbacks: unknown[], files: Record<string, string> = {}): string {
  const dir = tempDir("cpilot-run-watch-", { git: true });
  dirs.push(dir);
  writeFileSync(join(dir, "callbacks.config.json"), JSON.stringify({ callbacks }));
  for (const [p, t] of Object.entries(files)) writeFileSync(join(dir, p), t);
  return dir;
}

function run(
  dir: string,
  args: string[],
  onStart?: (pid: number) => void,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(binary(), ["run", ...args], {
      cwd: dir,
      env: {
        PATH: "/usr/local/bin:/usr/bin:/bin",
        HOME: process.env.HOME ?? "/root",
        ...runtimeEnv(),
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    onStart?.(child.pid as number);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

const LINT = {
  name: "lint",
  pattern: "**/*.ts",
  timeout: 10,
  run: "grep -H BAD $CP_CHANGED_FILES && exit 1; exit 0",
};

describe("cpilot run -- <any command>", () => {
  test("edits are checked after the quiet period; the exit code passes through; results in .cpilot/last-results.md", async () => {
    const dir = project([LINT]);
    const r = await run(dir, [
      "--",
      "sh",
      "-c",
      "echo 'let x = BAD;' > a.ts; echo ok > notes.md; sleep 1; exit 3",
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("cpilot: ✗ 'lint' failed on a.ts");
    expect(r.stderr).toContain("1 batch checked while sh ran");
    const results = readFileSync(join(dir, ".cpilot", "last-results.md"), "utf8");
    expect(results).toContain("status: FAILED: lint");
    expect(results).toContain("a.ts:let x = BAD;");
  }, 30_000);

  test("edits still waiting when the agent exits are checked before cpilot returns", async () => {
    const dir = project([LINT]);
    const r = await run(dir, ["--quiet-ms", "2000", "--", "sh", "-c", "echo BAD > late.ts"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("'lint' failed on late.ts");
  }, 30_000);

  test("a formatter that rewrites the file runs once, over two seconds", async () => {
    const counter = join(tempDir("cpilot-run-count-"), "runs");
    dirs.push(join(counter, ".."));
    const fmt = {
      name: "fmt",
      pattern: "*.txt",
      timeout: 10,
      run: `echo run >> '${counter}'; for f in $CP_CHANGED_FILES; do tr a-z A-Z < "$f" > "$f.tmp" && mv "$f.tmp" "$f"; done`,
    };
    const dir = project([fmt]);
    const r = await run(dir, ["--", "sh", "-c", "echo hello > a.txt; sleep 2.5"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("HELLO\n");
    expect(readFileSync(counter, "utf8")).toBe("run\n");
    expect(r.stderr).toContain("rewrote a.txt");
  }, 30_000);

  test("SIGTERM reaches the agent, and its exit code comes back", async () => {
    const dir = project([LINT]);
    // the agent says when its trap is set: a SIGTERM before that would end it another way
    const ready = join(tempDir("cpilot-run-ready-"), "ready");
    let pid = 0;
    const done = run(
      dir,
      ["--", "sh", "-c", `trap 'exit 42' TERM; : > '${ready}'; sleep 10 >/dev/null 2>&1 & wait`],
      (p) => {
        pid = p;
      },
    );
    expect(await waitFor(() => existsSync(ready), 30_000)).toBe(true);
    process.kill(pid, "SIGTERM");
    const r = await done;
    expect(r.code).toBe(42);
  }, 30_000);

  test("a command that does not exist: exit 127 with a hint", async () => {
    const dir = project([LINT]);
    const r = await run(dir, ["--", "no-such-agent-xyz"]);
    expect(r.code).toBe(127);
    expect(r.stderr).toContain('is "no-such-agent-xyz" installed and on PATH?');
  }, 30_000);
});
