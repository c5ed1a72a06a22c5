import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { evaluateWrite, type GateConfig } from "../../src/gate/index.ts";
import { makeProject } from "./_fixture.ts";

const { base, root, cleanup } = makeProject();
afterAll(cleanup);

const repo = resolve(import.meta.dir, "../..");
const bun = join(repo, "node_modules/.bin/bun");
const src = (rel: string) => JSON.stringify(join(repo, rel));

/** Run a bun -e script in a real process; returns exit code and output. */
async function run(
  code: string,
  cwd = repo,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([bun, "-e", code], {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  const [stdout, stderr] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  return { code: await proc.exited, stdout, stderr };
}

const logFile = join(root, ".cpilot", "gate.log.jsonl");

describe("gate log", () => {
  test("every decision is appended with time, tool, path, decision, reason, source, agent, session", async () => {
    await evaluateWrite(
      { tool: "Write", path: ".env", content: "SECRET=hunter2", agent: "claude", session: "abc" },
      { root, config: {}, tty: false },
    );
    const lines = readFileSync(logFile, "utf8").trim().split("\n");
    const entry = JSON.parse(lines.at(-1) as string);
    expect(entry).toMatchObject({
      tool: "Write",
      path: ".env",
      decision: "deny",
      source: "default:secrets",
      agent: "claude",
      session: "abc",
    });
    expect(Number.isNaN(Date.parse(entry.time))).toBe(false);
    expect(readFileSync(logFile, "utf8")).not.toContain("hunter2");
  });

  test("log: false and gate.log: false write nothing", async () => {
    const before = readFileSync(logFile, "utf8");
    await evaluateWrite(
      { tool: "Write", path: "a.ts", content: "" },
      { root, config: {}, log: false },
    );
    await evaluateWrite(
      { tool: "Write", path: "a.ts", content: "" },
      { root, config: { log: false } },
    );
    expect(readFileSync(logFile, "utf8")).toBe(before);
  });

  test("two processes appending at once leave valid JSONL", async () => {
    const file = join(base, "concurrent.jsonl");
    const writer = (tag: string) =>
      run(`
        import { evaluateWrite } from ${src("src/gate/index.ts")};
        const long = "${tag}".repeat(3000);
        for (let i = 0; i < 200; i++) {
          await evaluateWrite({ tool: "Write", path: "src/" + i + ".ts", content: "", agent: long }, { root: ${JSON.stringify(root)}, config: { pluginsDir: false }, log: ${JSON.stringify(file)} });
        }`);
    const results = await Promise.all([writer("a"), writer("b")]);
    for (const r of results) expect(r.code).toBe(0);
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.length).toBe(400);
    for (const line of lines) {
      const entry = JSON.parse(line);
      expect(entry.agent).toMatch(/^(a{3000}|b{3000})$/);
    }
  }, 30_000);
});

describe("gateCommand in a real process", () => {
  const gate: GateConfig = {
    rules: [
      {
        action: "deny",
        pattern: "vendor/",
        reason: "vendored code: update it with the vendor script",
      },
    ],
  };
  const cli = (args: string[]) =>
    run(`
      import { gateCommand } from ${src("src/cli/gate.ts")};
      import { AGENT_HOOK_FILES } from ${src("src/agents/registry.ts")};
      import { protectHookFiles } from ${src("src/config/hook-files.ts")};
      protectHookFiles(AGENT_HOOK_FILES); // as main.ts does
      const code = await gateCommand(${JSON.stringify(args)}, { root: ${JSON.stringify(root)}, gate: ${JSON.stringify(gate)} });
      process.exitCode = code;`);

  test("test PATH --json prints the decision and is not logged", async () => {
    const before = readFileSync(logFile, "utf8");
    const r = await cli(["test", "vendor/lib.js", "--json"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: "deny", source: "rule:vendor/" });
    expect(readFileSync(logFile, "utf8")).toBe(before);
  });

  test("test PATH prints decision, reason and source for people; allow exits 0", async () => {
    const content = join(base, "content.txt");
    writeFileSync(content, "hello\n");
    const denied = await cli(["test", ".git/config"]);
    expect(denied.code).toBe(1);
    expect(denied.stdout).toContain("deny  [default:git]");
    expect(denied.stdout).toContain(".git directory");
    expect(denied.stderr).toContain("hint: gate.defaults.git");
    const allowed = await cli(["test", "src/ok.ts", "--content", content, "--tool", "Edit"]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain("allow  [default:allow]");
  });

  test("log shows the last N decisions; --json prints JSONL", async () => {
    const human = await cli(["log", "-n", "1"]);
    expect(human.code).toBe(0);
    expect(human.stdout.split("\n").filter((l) => l.includes("Write")).length).toBe(1);
    const json = await cli(["log", "--json"]);
    const entries = json.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries[0]).toMatchObject({ path: ".env", decision: "deny" });
  });

  test("bad usage exits 2 with the usage on stderr", async () => {
    for (const args of [["nope"], ["test"], ["log", "-n", "x"], ["test", "a", "--bogus"]]) {
      const r = await cli(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("Cannot");
    }
  });
});
