/**
 * A TypeScript callback's prints (console.*, process.stdout/stderr.write, also from a timer
 * it starts) are its run's output, like a shell callback's stdout: in its tail and log, never
 * on cpilot's stdout, which carries --json and hook protocol. Several at once keep their own.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const CONFIG = `import { defineConfig } from "cpilot";

console.log("config top-level console.log");

const noisy = (name: string) => ({
  name,
  pattern: "*.txt",
  timeout: 30,
  run: async ({ files }: { files: readonly string[] }) => {
    console.log("log from", name);
    console.info("info from", name, { files: files.length });
    process.stdout.write(\`stdout.write from \${name}\\n\`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    console.error("error from", name, "after a timer");
    process.stderr.write(\`stderr.write from \${name}\\n\`);
    return files.some((f) => f.includes("bad")) ? 1 : 0;
  },
});

export default defineConfig({ callbacks: [noisy("one"), noisy("two")] });
`;

function project(): string {
  const root = tempDir("cpilot-prints-", { git: true });
  writeFiles(root, { "callbacks.config.ts": CONFIG, "a.txt": "x\n", "bad.txt": "y\n" });
  execFileSync("git", ["add", "-A"], { cwd: root }); // --all lists what git tracks
  return root;
}

const printed = (name: string) => [
  `log from ${name}`,
  `info from ${name} { files: 2 }`,
  `stdout.write from ${name}`,
  `error from ${name} after a timer`,
  `stderr.write from ${name}`,
];

test("check --json: stdout is the JSON alone; each run's tail and log hold its own prints", () => {
  const root = project();
  const r = cpilot(["check", "--all", "--json"], { cwd: root });
  expect(r.code).toBe(1);
  const json = JSON.parse(r.stdout) as {
    runs: { callback: string; tail: string[]; logPath: string }[];
  };
  for (const name of ["one", "two"]) {
    const run = json.runs.find((x) => x.callback === name)!;
    expect(run.tail).toEqual(printed(name));
    expect(readFileSync(run.logPath, "utf8")).toContain(printed(name).join("\n"));
  }
  // The config's own top-level print is no run's: it goes to stderr, not into the JSON.
  expect(r.stderr).toContain("config top-level console.log");
  expect(r.stderr).not.toContain("from one");
}, 60_000);

test("hook claude PostToolUse: stdout is the protocol reply, which carries the prints as the tail", () => {
  const root = project();
  const r = cpilot(["hook", "claude"], {
    cwd: root,
    env: { CLAUDE_PROJECT_DIR: root },
    input: JSON.stringify({
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: join(root, "bad.txt"), content: "y\n" },
      tool_response: { type: "create", filePath: join(root, "bad.txt") },
      tool_use_id: "toolu_1",
    }),
  });
  expect(r.code).toBe(0);
  const reply = JSON.parse(r.stdout) as { decision: string; reason: string };
  expect(reply.decision).toBe("block");
  const one = printed("one").map((line) => line.replace("files: 2", "files: 1"));
  expect(reply.reason).toContain(one.map((line) => `  ${line}`).join("\n"));
  expect(r.stderr).not.toContain("from one");
}, 60_000);

test("check --format sarif: stdout is the SARIF log alone", () => {
  const r = cpilot(["check", "--all", "--format", "sarif"], { cwd: project() });
  expect((JSON.parse(r.stdout) as { version: string }).version).toBe("2.1.0");
  expect(r.stderr).toContain("config top-level console.log");
}, 60_000);
