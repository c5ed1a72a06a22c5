/**
 * More attacks on the gate's fail-closed promise (issue 16, items 3, 5 and 7): OpenCode's
 * plugin when cpilot gives no verdict, `cpilot mcp` and `cpilot check` with a config that
 * hangs, loops or exits, and the size limit of MCP writes.
 */
import { describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { opencodePluginSource } from "../../src/agents/opencode/plugin-source.ts";
import { cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { tempDir, waitFor, writeFiles } from "../helpers/tmp.ts";

/** Each hanging call waits out its deadline: room for a few on a busy machine. */
const SLOW_TEST = 60_000;

type Hooks = {
  "tool.execute.before": (
    input: Record<string, unknown>,
    output: { args: Record<string, unknown> },
  ) => Promise<void>;
  "tool.execute.after": (
    input: Record<string, unknown>,
    output: { title: string; output: string; metadata: unknown },
  ) => Promise<void>;
};

/** The generated plugin, starting `argv` as cpilot, loaded as OpenCode loads it. */
async function plugin(dir: string, argv: string[]): Promise<Hooks> {
  const file = join(dir, `.cpilot-plugin-${crypto.randomUUID()}.ts`);
  writeFileSync(file, opencodePluginSource(argv));
  const mod = (await import(file)) as { CpilotPlugin: (ctx: unknown) => Promise<Hooks> };
  return mod.CpilotPlugin({ directory: dir, worktree: dir });
}

/** A stand-in for cpilot: a shell script with `body` (after reading its stdin). */
function fakeCpilot(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\ncat >/dev/null\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const write = (dir: string, name: string) => ({
  input: { tool: "write", sessionID: "s", callID: `c-${name}` },
  output: { args: { filePath: join(dir, name), content: "x\n" } },
});

describe("OpenCode's plugin refuses a write that gets no verdict (issue 16, item 3)", () => {
  // The plugin inherits OpenCode's environment: here the test's.
  Object.assign(process.env, runtimeEnv(), { CPILOT_OPENCODE_HOOK_TIMEOUT_MS: "1500" });
  const dir = tempDir("cpilot-opencode-", { git: true });
  writeFiles(dir, { "callbacks.config.json": '{ "callbacks": [] }\n' });
  const fakes: [string, () => string, string][] = [
    ["cpilot cannot start", () => join(dir, "no-such-cpilot"), "could not start"],
    ["cpilot crashes", () => fakeCpilot(dir, "crash", "echo boom >&2; exit 3"), "boom"],
    ["cpilot prints garbage", () => fakeCpilot(dir, "garbage", "echo 'not json'"), "not a reply"],
    [
      "cpilot answers without a verdict",
      () => fakeCpilot(dir, "empty", "echo '{}'"),
      "without a verdict",
    ],
    [
      "cpilot hangs, ignoring SIGTERM",
      () => fakeCpilot(dir, "hang", "trap '' TERM\nexec sleep 600"),
      "did not answer within 1.5 s",
    ],
  ];
  for (const [what, fake, why] of fakes) {
    test(
      `${what}: the write is refused with the reason; other tools go on; an edit's after-event notes it`,
      async () => {
        const hooks = await plugin(dir, [fake()]);
        const { input, output } = write(dir, "src/a.ts");
        const refused = await hooks["tool.execute.before"](input, output).then(
          () => "allowed",
          (err: Error) => err.message,
        );
        expect(refused).toContain("could not decide on this write");
        expect(refused).toContain(why);
        // A read is not the gate's business: it goes on.
        await hooks["tool.execute.before"](
          { tool: "read", sessionID: "s", callID: "r" },
          { args: { filePath: join(dir, "x") } },
        );
        const after = { title: "", output: "done", metadata: {} };
        await hooks["tool.execute.after"]({ ...input, args: output.args }, after);
        // `{}` is a post-edit event's "nothing to say"; no answer at all gets a note.
        if (why === "without a verdict") expect(after.output).toBe("done");
        else expect(after.output).toContain("checks did not run");
      },
      SLOW_TEST,
    );
  }

  test(
    "the real cpilot: a plain write is allowed explicitly, .git/ is denied, a config that loops denies .env",
    async () => {
      const hooks = await plugin(dir, [cpilotBinary()]);
      const ok = write(dir, "src/ok.ts");
      await hooks["tool.execute.before"](ok.input, ok.output);
      const git = write(dir, ".git/hooks/pre-commit");
      await expect(hooks["tool.execute.before"](git.input, git.output)).rejects.toThrow(".git");
      const looping = tempDir("cpilot-opencode-loop-", { git: true });
      writeFiles(looping, {
        "callbacks.config.ts": "while (true) {}\nexport default { callbacks: [] };\n",
      });
      process.env.CPILOT_CONFIG_LOAD_TIMEOUT_MS = "2000";
      process.env.CPILOT_OPENCODE_HOOK_TIMEOUT_MS = "30000";
      try {
        const stuck = await plugin(looping, [cpilotBinary()]);
        const env = write(looping, ".env");
        await expect(stuck["tool.execute.before"](env.input, env.output)).rejects.toThrow(
          "config did not load",
        );
        expect(existsSync(join(looping, ".env"))).toBe(false);
      } finally {
        delete process.env.CPILOT_CONFIG_LOAD_TIMEOUT_MS;
        process.env.CPILOT_OPENCODE_HOOK_TIMEOUT_MS = "1500";
      }
    },
    SLOW_TEST,
  );
});

describe("MCP writes are held to the 10 MiB limit of edits and reads", () => {
  test(
    "write_file and a creating edit_file over 10 MiB are refused, nothing is written; 10 MiB itself is fine",
    async () => {
      const { startMcp } = await import("../mcp/_client.ts");
      const dir = tempDir("cpilot-mcp-size-", { git: true });
      writeFiles(dir, { "callbacks.config.json": '{ "callbacks": [] }\n' });
      const mcp = await startMcp(dir);
      try {
        const limit = 10 * 1024 * 1024;
        const big = await mcp.call("write_file", {
          path: "big.txt",
          content: "a".repeat(limit + 1),
        });
        expect(big.isError).toBe(true);
        expect(big.text).toContain("over the 10485760-byte (10 MiB) limit");
        expect(existsSync(join(dir, "big.txt"))).toBe(false);
        // Multi-byte text counts in bytes: 4 MiB of three-byte characters is 12 MiB.
        const wide = await mcp.call("edit_file", {
          path: "wide.txt",
          old_string: "",
          new_string: "€".repeat(4 * 1024 * 1024),
        });
        expect(wide.isError).toBe(true);
        expect(existsSync(join(dir, "wide.txt"))).toBe(false);
        const fits = await mcp.call("write_file", { path: "fits.txt", content: "a".repeat(limit) });
        expect(fits.isError).toBe(false);
        expect(statSync(join(dir, "fits.txt")).size).toBe(limit);
      } finally {
        await mcp.close();
      }
    },
    SLOW_TEST,
  );
});

const FAST = { CPILOT_CONFIG_LOAD_TIMEOUT_MS: "2000" };
const tsConfig = (body: string) => ({
  "callbacks.config.ts": `${body}\nexport default { callbacks: [] };\n`,
});
const MISBEHAVING: [string, string][] = [
  ["an endless loop", "while (true) {}"],
  ["a top-level await that never settles", "await new Promise(() => {});"],
  ["process.exit(0)", "process.exit(0);"],
  ["killing its own process", 'process.kill(process.pid, "SIGKILL");'],
];

describe("cpilot mcp started on a config that reads but does not validate", () => {
  const gate = { rules: [{ action: "deny", pattern: "vendor/", reason: "vendored" }] };
  test(
    "only its callbacks wrong: its gate section decides; a wrong key elsewhere: no write",
    async () => {
      const { startMcp } = await import("../mcp/_client.ts");
      const dir = tempDir("cpilot-mcp-invalid-", { git: true });
      const bad = [{ name: "Bad Name", pattern: "*.ts", run: "true" }];
      writeFiles(dir, { "callbacks.config.json": JSON.stringify({ callbacks: bad, gate }) });
      let mcp = await startMcp(dir);
      try {
        const vendor = await mcp.call("write_file", { path: "vendor/x.js", content: "x\n" });
        expect(vendor.isError).toBe(true);
        expect(vendor.text).toContain("vendored");
        const plain = await mcp.call("write_file", { path: "src/a.ts", content: "x\n" });
        expect(plain.isError).toBe(false);
      } finally {
        await mcp.close();
      }
      writeFiles(dir, { "callbacks.config.json": JSON.stringify({ callbacks: [], gates: gate }) });
      mcp = await startMcp(dir);
      try {
        const vendor = await mcp.call("write_file", { path: "vendor/x.js", content: "x\n" });
        expect(vendor.isError).toBe(true);
        expect(vendor.text).toContain("no write is allowed");
        expect(existsSync(join(dir, "vendor/x.js"))).toBe(false);
      } finally {
        await mcp.close();
      }
    },
    SLOW_TEST,
  );
});

describe("cpilot mcp answers every call when the config cannot load (issue 16, items 3 and 7)", () => {
  for (const [what, body] of MISBEHAVING) {
    test(
      `${what}: writes are refused saying so (built-ins first), reads and lists say it, the server lives on`,
      async () => {
        const { startMcp } = await import("../mcp/_client.ts");
        const dir = tempDir("cpilot-mcp-load-", { git: true });
        writeFiles(dir, { ...tsConfig(body), "notes.txt": "hello\n" });
        const mcp = await startMcp(dir, { env: FAST });
        try {
          const plain = await mcp.call("write_file", { path: "src/a.ts", content: "x\n" });
          expect(plain.isError).toBe(true);
          expect(plain.text).toContain("config did not load");
          expect(existsSync(join(dir, "src/a.ts"))).toBe(false);
          const hook = await mcp.call("write_file", {
            path: ".git/hooks/pre-commit",
            content: "x",
          });
          expect(hook.isError).toBe(true);
          expect(hook.text).toContain(".git");
          expect(hook.text).toContain("config did not load");
          const gone = await mcp.call("delete_file", { path: "notes.txt" });
          expect(gone.isError).toBe(true);
          expect(existsSync(join(dir, "notes.txt"))).toBe(true);
          const read = await mcp.call("read_file", { path: "notes.txt" });
          expect(read.isError).toBe(false);
          expect(read.text).toContain("hello");
          expect(read.text).toContain("config did not load");
          const list = await mcp.call("callback_list");
          expect(list.text).toContain("Cannot load config");
          // The person fixes the config: the next call sees it.
          writeFiles(dir, { "callbacks.config.ts": "export default { callbacks: [] };\n" });
          const fixed = await mcp.call("write_file", { path: "src/a.ts", content: "x\n" });
          expect(fixed.isError).toBe(false);
        } finally {
          await mcp.close();
        }
      },
      SLOW_TEST,
    );
  }

  test(
    "a call made while a changed config is tried waits for it: the old config's rules no longer count",
    async () => {
      const { startMcp } = await import("../mcp/_client.ts");
      const dir = tempDir("cpilot-mcp-reload-", { git: true });
      const allow = 'gate: { rules: [{ action: "allow", pattern: ".env.local" }] }';
      writeFiles(dir, { "callbacks.config.ts": `export default { callbacks: [], ${allow} };\n` });
      const mcp = await startMcp(dir, { env: FAST });
      try {
        const before = await mcp.call("write_file", { path: ".env.local", content: "A=1\n" });
        expect(before.isError).toBe(false);
        writeFiles(dir, {
          "callbacks.config.ts": `while (true) {}\nexport default { callbacks: [], ${allow} };\n`,
        });
        // The list starts the trial load of the changed config; the write arrives meanwhile.
        const [, write] = await Promise.all([
          mcp.call("callback_list"),
          mcp.call("write_file", { path: ".env.local", content: "A=2\n" }),
        ]);
        expect(write.isError).toBe(true);
        expect(write.text).toContain("config did not load");
        expect(readFileSync(join(dir, ".env.local"), "utf8")).toBe("A=1\n");
      } finally {
        await mcp.close();
      }
    },
    SLOW_TEST,
  );

  test(
    "a config that calls process.exit() later, from a timer: the server's log says why it ended",
    async () => {
      const { startMcp } = await import("../mcp/_client.ts");
      const dir = tempDir("cpilot-mcp-exit-", { git: true });
      writeFiles(dir, tsConfig("setTimeout(() => process.exit(3), 300);"));
      const mcp = await startMcp(dir, { env: FAST });
      try {
        // the server loads the config, then its timer fires: however long a busy machine takes
        expect(await waitFor(() => mcp.stderr().includes("called process.exit(3)"), 30_000)).toBe(
          true,
        );
      } finally {
        await mcp.close().catch(() => undefined);
      }
    },
    SLOW_TEST,
  );
});

interface CheckRun {
  code: number | null;
  signal: string | null;
  stderr: string;
}

/** `cpilot check a.txt` (or `args`) in `dir`, with `signal` sent once `when` holds; SIGKILL after 30 s. */
function check(
  dir: string,
  env: Record<string, string>,
  signal?: { name: NodeJS.Signals; when: () => boolean },
  args = ["check", "a.txt"],
): Promise<CheckRun> {
  return new Promise((resolve) => {
    const child = spawn(cpilotBinary(), args, {
      cwd: dir,
      env: {
        PATH: "/usr/local/bin:/usr/bin:/bin",
        HOME: process.env.HOME ?? "/root",
        ...runtimeEnv(),
        ...env,
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    let closed = false;
    if (signal) {
      void waitFor(() => closed || signal.when(), 30_000).then(() => {
        if (!closed) child.kill(signal.name);
      });
    }
    child.on("close", (code, sig) => {
      closed = true;
      clearTimeout(timer);
      resolve({ code, signal: sig, stderr });
    });
  });
}

describe("cpilot check (and list, logs, gate…) with a config that cannot load (issue 16, item 7)", () => {
  for (const [what, body] of MISBEHAVING) {
    test(
      `${what}: exit 2 with the reason, within the deadline`,
      async () => {
        const dir = tempDir("cpilot-check-load-", { git: true });
        writeFiles(dir, { ...tsConfig(body), "a.txt": "x\n" });
        const r = await check(dir, FAST);
        expect({ code: r.code, signal: r.signal }).toEqual({ code: 2, signal: null });
        expect(r.stderr).toContain('Cannot load config "callbacks.config.ts"');
      },
      SLOW_TEST,
    );
  }

  for (const name of ["SIGINT", "SIGTERM"] as const) {
    test(
      `${name} ends a check whose config loops (the deadline far off)`,
      async () => {
        const dir = tempDir("cpilot-check-sig-", { git: true });
        // The signal comes once the config is loading, however long a busy machine took to get
        // there: sent earlier, it would meet a cpilot still starting, not one waiting on a load.
        const loading = join(tempDir("cpilot-loading-"), "loading");
        const body = `(await import("node:fs")).writeFileSync(${JSON.stringify(loading)}, "");\nwhile (true) {}`;
        writeFiles(dir, { ...tsConfig(body), "a.txt": "x\n" });
        const r = await check(
          dir,
          { CPILOT_CONFIG_LOAD_TIMEOUT_MS: "600000" },
          { name, when: () => existsSync(loading) },
        );
        expect(r.signal).not.toBe("SIGKILL");
        expect(r.code).toBe(130);
      },
      SLOW_TEST,
    );
  }

  test(
    "list, logs, disable and gate test end the same way",
    async () => {
      const dir = tempDir("cpilot-cli-load-", { git: true });
      writeFiles(dir, tsConfig("while (true) {}"));
      for (const args of [["list"], ["logs"], ["disable", "--all"], ["gate", "test", "x"]]) {
        const r = await check(dir, FAST, undefined, args);
        expect({ args, code: r.code }).toEqual({ args, code: 2 });
        expect(r.stderr).toContain("did not finish loading within 2 s");
      }
    },
    SLOW_TEST,
  );

  test("a script config that loads still runs its callbacks", async () => {
    const dir = tempDir("cpilot-check-ok-", { git: true });
    writeFiles(dir, {
      "callbacks.config.ts": `const cmd = ["sh", "-c", "echo ran-" + "it >&2; exit 1"];\nexport default { callbacks: [{ name: "c", pattern: "*.txt", run: cmd, timeout: 30 }] };\n`,
      "a.txt": "x\n",
    });
    const r = await check(dir, {});
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("ran-it");
  });
});

test(
  "on Deno (no child to try the config in) check still loads a script config and runs it",
  () => {
    const dir = tempDir("cpilot-deno-ts-", { git: true });
    writeFiles(dir, {
      "callbacks.config.ts": `const cmd = ["sh", "-c", "echo ran-" + "it >&2"];\nexport default { callbacks: [{ name: "c", pattern: "*.txt", run: cmd, timeout: 30 }] };\n`,
      "a.txt": "x\n",
    });
    const repo = join(import.meta.dir, "..", "..");
    const r = spawnSync(
      join(repo, "node_modules", ".bin", "deno"),
      ["run", "-A", "--node-modules-dir=manual", join(repo, "main.ts"), "check", "a.txt"],
      {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
        timeout: 50_000,
      },
    );
    expect({ code: r.status, stderr: r.stderr }).toEqual({
      code: 0,
      stderr: expect.stringContaining("1 run passed"),
    });
  },
  SLOW_TEST,
);
