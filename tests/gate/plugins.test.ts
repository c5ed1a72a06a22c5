import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { evaluateWrite, type GateConfig, type PendingWrite } from "../../src/gate/index.ts";
import { makeProject } from "./_fixture.ts";

const { base, root, cleanup } = makeProject();
afterAll(cleanup);

let n = 0;
/** Write an executable sh script and return its path. */
function script(body: string): string {
  const file = join(base, `plugin-${++n}.sh`);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

const write: PendingWrite = {
  tool: "Write",
  path: "src/a.ts",
  content: "one\ntwo\n",
  agent: "claude",
  session: "s1",
};
const decide = (config: GateConfig, w: PendingWrite = write) =>
  evaluateWrite(w, { root, config: { pluginsDir: false, ...config }, log: false, tty: false });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // a zombie nobody reaped yet is dead too
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

describe("plugin protocol", () => {
  test("gets the write as JSON on stdin and CP_HOOK in env, never content in env", async () => {
    const seen = join(base, "seen.json");
    const env = join(base, "seen.env");
    const p = script(`cat > ${seen}; env > ${env}; echo '{"decision":"allow"}'`);
    const d = await decide({ plugins: [{ command: [p] }] });
    expect(d.decision).toBe("allow");
    const input = JSON.parse(readFileSync(seen, "utf8"));
    expect(input).toMatchObject({
      hook: "pre_write",
      tool: "Write",
      path: "src/a.ts",
      content: "one\ntwo\n",
      agent: "claude",
      session: "s1",
      root,
    });
    const envText = readFileSync(env, "utf8");
    expect(envText).toContain("CP_HOOK=pre_write");
    expect(envText).not.toContain("one\ntwo");
  });

  test("edits arrive as old_string/new_string", async () => {
    const seen = join(base, "seen-edit.json");
    const p = script(`cat > ${seen}; echo '{"decision":"allow"}'`);
    await decide(
      { plugins: [{ command: p }] },
      { tool: "Edit", path: "src/a.ts", oldString: "a", newString: "b" },
    );
    expect(JSON.parse(readFileSync(seen, "utf8"))).toMatchObject({
      old_string: "a",
      new_string: "b",
    });
  });

  test("a deny carries the plugin's reason", async () => {
    const p = script(`echo '{"decision":"deny","reason":"frozen until release"}'`);
    const d = await decide({ plugins: [{ command: [p], name: "freeze" }] });
    expect(d).toMatchObject({ decision: "deny", source: "plugin:freeze" });
    expect(d.reason).toContain("frozen until release");
  });

  test("plugins run in order and the first deny wins", async () => {
    const marker = join(base, "second-ran");
    const first = script(`echo '{"decision":"deny","reason":"first"}'`);
    const second = script(`touch ${marker}; echo '{"decision":"deny","reason":"second"}'`);
    const d = await decide({
      plugins: [
        { command: [first], name: "one" },
        { command: [second], name: "two" },
      ],
    });
    expect(d.source).toBe("plugin:one");
    expect(existsSync(marker)).toBe(false);
  });

  test("plugins in .cpilot/gate-plugins run sorted; non-executables are skipped", async () => {
    const dir = join(root, ".cpilot", "gate-plugins");
    mkdirSync(dir, { recursive: true });
    const order = join(base, "order.txt");
    writeFileSync(
      join(dir, "20-b"),
      `#!/bin/sh\necho b >> ${order}\necho '{"decision":"allow"}'\n`,
      { mode: 0o755 },
    );
    writeFileSync(
      join(dir, "10-a"),
      `#!/bin/sh\necho a >> ${order}\necho '{"decision":"allow"}'\n`,
      { mode: 0o755 },
    );
    writeFileSync(join(dir, "30-readme.md"), "not a plugin\n", { mode: 0o644 });
    const d = await evaluateWrite(write, { root, config: {}, log: false, tty: false });
    expect(d.decision).toBe("allow");
    expect(readFileSync(order, "utf8")).toBe("a\nb\n");
    writeFileSync(join(dir, "40-deny"), `#!/bin/sh\necho '{"decision":"deny","reason":"no"}'\n`, {
      mode: 0o755,
    });
    expect((await evaluateWrite(write, { root, config: {}, log: false, tty: false })).source).toBe(
      "plugin:40-deny",
    );
    expect((await decide({})).decision).toBe("allow"); // pluginsDir: false
  });
});

describe("a broken plugin denies the write (fail closed)", () => {
  test("crash: non-zero exit, with its stderr", async () => {
    const p = script(`echo 'boom: no config' >&2; exit 3`);
    const d = await decide({ plugins: [{ command: [p], name: "crashy" }] });
    expect(d).toMatchObject({ decision: "deny", source: "plugin:crashy" });
    expect(d.reason).toContain("exit 3");
    expect(d.reason).toContain("boom: no config");
    expect(d.reason).toContain("denied to be safe");
  });

  test("garbage on stdout", async () => {
    const p = script(`echo 'sure, go ahead'`);
    const d = await decide({ plugins: [{ command: [p] }] });
    expect(d.decision).toBe("deny");
    expect(d.reason).toContain("not JSON");
  });

  test("JSON of the wrong shape", async () => {
    const p = script(`echo '{"decision":"yes"}'`);
    const d = await decide({ plugins: [{ command: [p] }] });
    expect(d.decision).toBe("deny");
    expect(d.reason).toContain('"decision"');
  });

  test("nothing on stdout", async () => {
    const d = await decide({ plugins: [{ command: [script("true")] }] });
    expect(d.decision).toBe("deny");
    expect(d.reason).toContain("printed nothing");
  });

  test("missing executable (argv and shell string)", async () => {
    const a = await decide({ plugins: [{ command: [join(base, "no-such-plugin")] }] });
    expect(a.decision).toBe("deny");
    expect(a.reason).toContain("missing");
    const b = await decide({ plugins: [{ command: "no-such-command-xyz --flag" }] });
    expect(b.decision).toBe("deny");
    expect(b.reason).toContain("command not found");
  });

  test("a setsid child does not outlive the plugin that started it", async () => {
    const pidFile = join(base, "escaped.pid");
    const p = script(
      `setsid sleep 300 </dev/null >/dev/null 2>&1 &\necho $! > ${pidFile}\necho '{"decision":"allow"}'`,
    );
    const d = await decide({ plugins: [{ command: [p], name: "escaper" }] });
    expect(d.decision).toBe("allow");
    const pid = Number(readFileSync(pidFile, "utf8"));
    for (let i = 0; i < 1000 && alive(pid); i++) await Bun.sleep(20);
    const left = alive(pid);
    if (left) process.kill(pid, "SIGKILL");
    expect(left).toBe(false);
  });

  test("timeout kills the plugin's whole process group, grandchildren included", async () => {
    const pidFile = join(base, "grandchild.pid");
    // it would run longer than the test may last: only the timeout ends it
    const p = script(`sleep 100 &\necho $! > ${pidFile}\nsleep 100`);
    // The timeout has to come after the script wrote its grandchild's pid: a machine too busy
    // to get there in time tries again with a longer one.
    for (const timeout of [0.5, 2, 10]) {
      rmSync(pidFile, { force: true });
      const d = await decide({ plugins: [{ command: [p], timeout, name: "slow" }] });
      expect(d).toMatchObject({ decision: "deny", source: "plugin:slow" });
      expect(d.reason).toContain(`timed out after ${timeout} s`);
      const pid = Number(existsSync(pidFile) ? readFileSync(pidFile, "utf8").trim() : "");
      if (!(pid > 0)) continue;
      for (let i = 0; i < 1000 && alive(pid); i++) await Bun.sleep(20);
      expect(alive(pid)).toBe(false);
      return;
    }
    throw new Error("the plugin never wrote its grandchild's pid");
  });

  test("a plugin that ignores SIGTERM is killed with SIGKILL", async () => {
    const p = script(`trap '' TERM\nsleep 100`);
    const d = await decide({ plugins: [{ command: [p], timeout: 0.3 }] });
    expect(d.decision).toBe("deny");
    expect(d.reason).toContain("timed out");
  });
});

describe("modify", () => {
  test("content change is applied and summarized with a small diff", async () => {
    const p = script(
      `cat >/dev/null; printf '{"decision":"modify","content":"one\\\\nTWO\\\\nthree\\\\n"}'`,
    );
    const d = await decide({ plugins: [{ command: [p], name: "fmt" }] });
    expect(d.decision).toBe("allow");
    expect(d.content).toBe("one\nTWO\nthree\n");
    expect(d.modified?.summary).toContain("content changed: +2/-1 lines");
    expect(d.modified?.summary).toContain("+TWO");
  });

  test("path change is re-checked and summarized", async () => {
    const p = script(`echo '{"decision":"modify","path":"src/b.ts"}'`);
    const d = await decide({ plugins: [{ command: [p] }] });
    expect(d).toMatchObject({
      decision: "allow",
      relativePath: "src/b.ts",
      path: join(root, "src/b.ts"),
    });
    expect(d.modified?.summary).toBe('path changed from "src/a.ts" to "src/b.ts"');
  });

  test.each([
    [".git/hooks/post-checkout", "default:git"],
    ["../outside/x", "default:outside-root"],
    ["escape-dir/x", "default:symlink-escape"],
    [".env", "default:secrets"],
  ])("a modify that redirects to %s is denied", async (target, source) => {
    const p = script(`echo '{"decision":"modify","path":"${target}"}'`);
    const d = await decide({ plugins: [{ command: [p], name: "sneaky" }] });
    expect(d).toMatchObject({ decision: "deny", source });
    expect(d.reason).toContain('plugin "sneaky" changed the write');
  });

  test("a modify onto a path a user rule denies is denied", async () => {
    const p = script(`echo '{"decision":"modify","path":"vendor/x.ts"}'`);
    const d = await decide({
      plugins: [{ command: [p] }],
      rules: [{ action: "deny", pattern: "vendor/" }],
    });
    expect(d).toMatchObject({ decision: "deny", source: "rule:vendor/" });
  });

  test("modify results chain: the next plugin sees the modified write", async () => {
    const seen = join(base, "chain.json");
    const first = script(`echo '{"decision":"modify","path":"src/moved.ts","content":"new"}'`);
    const second = script(`cat > ${seen}; echo '{"decision":"allow"}'`);
    const d = await decide({ plugins: [{ command: [first] }, { command: [second] }] });
    expect(JSON.parse(readFileSync(seen, "utf8"))).toMatchObject({
      path: "src/moved.ts",
      content: "new",
    });
    expect(d.modified?.summary).toContain("path changed");
    expect(d.modified?.summary).toContain("content changed");
  });
});

describe("TypeScript function plugins", () => {
  test("allow, deny, modify, sync and async", async () => {
    const deny = await decide({
      plugins: [async (w) => ({ decision: "deny", reason: `no writes to ${w.path} today` })],
    });
    expect(deny.decision).toBe("deny");
    expect(deny.reason).toContain("no writes to src/a.ts today");
    expect(deny.source).toBe("plugin:function#1");

    function upper(w: { content?: string }) {
      return { decision: "modify" as const, content: (w.content ?? "").toUpperCase() };
    }
    const mod = await decide({ plugins: [upper] });
    expect(mod).toMatchObject({
      decision: "allow",
      content: "ONE\nTWO\n",
      source: "default:allow",
    });
    expect(mod.modified?.summary).toContain("+2/-2");
  });

  test("a throwing, garbage-returning or redirecting function denies", async () => {
    const thrown = await decide({
      plugins: [
        () => {
          throw new Error("kaput");
        },
      ],
    });
    expect(thrown.decision).toBe("deny");
    expect(thrown.reason).toContain("kaput");
    const garbage = await decide({ plugins: [() => "yes" as never] });
    expect(garbage.decision).toBe("deny");
    const redirect = await decide({
      plugins: [() => ({ decision: "modify", path: ".GIT/config" })],
    });
    expect(redirect).toMatchObject({ decision: "deny", source: "default:git" });
  });

  test("a function that never settles times out", async () => {
    const d = await decide({ pluginTimeout: 0.2, plugins: [() => new Promise(() => {})] });
    expect(d.decision).toBe("deny");
    expect(d.reason).toContain("timed out");
  });
});
