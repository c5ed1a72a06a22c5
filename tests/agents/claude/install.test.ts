/** `cpilot install|uninstall claude` and `cpilot run -- claude`, with the built binary. */
import { afterEach, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { failClosedCommand } from "../../../src/hook/fail-closed-command.ts";
import { pathWithCpilot, runtimeEnv } from "../../helpers/binary.ts";
import { tempDir, writeFiles } from "../../helpers/tmp.ts";
import { binary, cpilot } from "./_helpers.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dir(files: Record<string, string> = {}): string {
  const d = tempDir("cpilot-install-", { git: true });
  writeFiles(d, files);
  dirs.push(d);
  return d;
}

const CONFIG = JSON.stringify({
  callbacks: [{ name: "slow", pattern: "*", run: "true", timeout: 900 }],
});

const userSettings = {
  model: "opus",
  permissions: { allow: ["Bash(npm test)"] },
  hooks: {
    PostToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: "./my-hook.sh" }] }],
    Notification: [{ hooks: [{ type: "command", command: "notify-send hi" }] }],
  },
};

describe("install / uninstall", () => {
  test("merges cpilot's hooks into .claude/settings.json, keeps the rest, and is idempotent", () => {
    const d = dir({
      "callbacks.config.json": CONFIG,
      ".claude/settings.json": JSON.stringify(userSettings),
    });
    const path = join(d, ".claude/settings.json");
    // cpilot on PATH: the shared file gets `cpilot`, which works on every teammate's machine.
    const env = { PATH: pathWithCpilot() };
    const r = cpilot(["install", "claude"], { cwd: d, env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      "added hooks for SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolBatch, Stop, SubagentStop",
    );
    const settings = JSON.parse(readFileSync(path, "utf8"));
    const ours = { type: "command", command: "cpilot hook claude", timeout: 960 };
    expect(settings.model).toBe("opus");
    expect(settings.permissions).toEqual(userSettings.permissions);
    expect(settings.hooks.Notification).toEqual(userSettings.hooks.Notification);
    expect(settings.hooks.PostToolUse).toEqual([
      ...userSettings.hooks.PostToolUse,
      { matcher: "Write|Edit|MultiEdit|NotebookEdit|Bash|Skill", hooks: [ours] },
    ]);
    // the gate fails closed: a missing or crashing cpilot blocks (missing-cpilot.e2e.test.ts)
    const gate = { ...ours, command: failClosedCommand(ours.command), onFailure: "block" };
    expect(settings.hooks.PreToolUse).toEqual([
      { matcher: "Write|Edit|MultiEdit|NotebookEdit", hooks: [gate] },
    ]);
    for (const event of ["SessionStart", "UserPromptSubmit", "PostToolBatch", "SubagentStop"]) {
      expect(settings.hooks[event]).toEqual([{ hooks: [ours] }]);
    }
    // The stop check, and beside it the one that waits for background results (asyncRewake).
    const rewake = {
      type: "command",
      command: "cpilot hook claude --rewake",
      timeout: 600,
      asyncRewake: true,
    };
    expect(settings.hooks.Stop).toEqual([{ hooks: [ours, rewake] }]);
    const text = readFileSync(path, "utf8");
    const again = cpilot(["install", "claude"], { cwd: d, env });
    expect(again.stderr).toContain("nothing changed");
    expect(readFileSync(path, "utf8")).toBe(text);

    const un = cpilot(["uninstall", "claude"], { cwd: d });
    expect(un.stderr).toContain("removed 8 cpilot hooks");
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(userSettings);
    expect(cpilot(["uninstall", "claude"], { cwd: d }).stderr).toContain("nothing changed");
  });

  test("an install made before Bash was matched gets the Bash matcher when installed again", () => {
    const old = { type: "command", command: "cpilot hook claude", timeout: 960 };
    const d = dir({
      "callbacks.config.json": CONFIG,
      ".claude/settings.json": JSON.stringify({
        hooks: { PostToolUse: [{ matcher: "Write|Edit|MultiEdit|NotebookEdit", hooks: [old] }] },
      }),
    });
    const r = cpilot(["install", "claude"], { cwd: d, env: { PATH: pathWithCpilot() } });
    expect(r.code).toBe(0);
    const settings = JSON.parse(readFileSync(join(d, ".claude/settings.json"), "utf8"));
    expect(settings.hooks.PostToolUse).toEqual([
      { matcher: "Write|Edit|MultiEdit|NotebookEdit|Bash|Skill", hooks: [old] },
    ]);
  });

  test("uninstall takes out the project settings file and .claude/ folder install made, leaving git status as before", () => {
    const d = dir({ "callbacks.config.json": CONFIG });
    const status = () =>
      spawnSync("git", ["status", "--porcelain", "--untracked-files=all"], {
        cwd: d,
        encoding: "utf8",
      }).stdout;
    spawnSync("git", ["init", "-q"], { cwd: d });
    const before = status();
    for (const scope of ["--local", "--project"]) {
      expect(cpilot(["install", "claude", scope], { cwd: d }).code).toBe(0);
      // the shared file shows, to be committed; this machine's is kept out of git
      if (scope === "--project") expect(status()).not.toBe(before);
      else expect(status()).toBe(before);
      expect(cpilot(["uninstall", "claude", scope], { cwd: d }).code).toBe(0);
      expect(status()).toBe(before);
      expect(existsSync(join(d, ".claude"))).toBe(false);
    }
    // A folder holding more than cpilot's file stays, with the rest of it.
    writeFiles(d, { ".claude/agents/x.md": "mine\n" });
    cpilot(["install", "claude", "--local"], { cwd: d });
    cpilot(["uninstall", "claude", "--local"], { cwd: d });
    expect(existsSync(join(d, ".claude/settings.local.json"))).toBe(false);
    expect(readFileSync(join(d, ".claude/agents/x.md"), "utf8")).toBe("mine\n");
  });

  test("--local keeps this machine's settings file out of git (info/exclude), and uninstall takes that out again", () => {
    const d = dir({ "callbacks.config.json": CONFIG });
    const git = (...args: string[]) => spawnSync("git", args, { cwd: d, encoding: "utf8" }).stdout;
    git("init", "-q");
    const exclude = join(d, ".git", "info", "exclude");
    const before = readFileSync(exclude, "utf8");
    const r = cpilot(["install", "claude", "--local"], { cwd: d });
    expect(r.stderr).toContain(
      ".claude/settings.local.json is this machine's file: kept out of git in .git/info/exclude",
    );
    expect(git("status", "--porcelain", "--untracked-files=all")).toBe(
      "?? callbacks.config.json\n",
    );
    cpilot(["uninstall", "claude", "--local"], { cwd: d });
    expect(readFileSync(exclude, "utf8")).toBe(before);
    // A project that ignores it already gets no line of ours.
    writeFiles(d, { ".gitignore": ".claude/settings.local.json\n" });
    const ignored = cpilot(["install", "claude", "--local"], { cwd: d });
    expect(ignored.stderr).not.toContain("info/exclude");
    expect(readFileSync(exclude, "utf8")).toBe(before);
  });

  test("--local and --user write their own files; a new file is created", () => {
    const d = dir({ "callbacks.config.json": CONFIG });
    const home = dir();
    cpilot(["install", "claude", "--local"], { cwd: d });
    expect(existsSync(join(d, ".claude/settings.local.json"))).toBe(true);
    expect(existsSync(join(d, ".claude/settings.json"))).toBe(false);
    cpilot(["install", "claude", "--user"], { cwd: d, env: { HOME: home } });
    const user = JSON.parse(readFileSync(join(home, ".claude/settings.json"), "utf8"));
    expect(Object.keys(user.hooks)).toContain("PostToolUse");
    cpilot(["uninstall", "claude", "--user"], { cwd: d, env: { HOME: home } });
    expect(JSON.parse(readFileSync(join(home, ".claude/settings.json"), "utf8"))).toEqual({});
  });

  test("a settings file kept in a dotfiles folder through a symlink stays a symlink", () => {
    const d = dir({ "callbacks.config.json": CONFIG });
    const home = dir({ "dotfiles/claude/settings.json": JSON.stringify({ model: "opus" }) });
    mkdirSync(join(home, ".claude"));
    // relative, as stow makes them
    symlinkSync("../dotfiles/claude/settings.json", join(home, ".claude/settings.json"));
    for (const command of ["install", "uninstall"]) {
      expect(cpilot([command, "claude", "--user"], { cwd: d, env: { HOME: home } }).code).toBe(0);
      expect(lstatSync(join(home, ".claude/settings.json")).isSymbolicLink()).toBe(true);
      const kept = JSON.parse(readFileSync(join(home, "dotfiles/claude/settings.json"), "utf8"));
      expect(kept.model).toBe("opus");
      expect(kept.hooks === undefined).toBe(command === "uninstall");
    }
  });

  test("a settings file that is not JSON is left alone with a clear error", () => {
    const d = dir({ ".claude/settings.json": "{ not json" });
    const r = cpilot(["install", "claude"], { cwd: d, env: { PATH: pathWithCpilot() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("it is not valid JSON");
    expect(readFileSync(join(d, ".claude/settings.json"), "utf8")).toBe("{ not json");
  });

  test("an older Claude Code (no PostToolBatch) gets no PostToolBatch hook", () => {
    const d = dir({ "callbacks.config.json": CONFIG });
    const fake = join(d, "old-claude");
    writeFileSync(fake, "#!/bin/sh\necho '2.0.76 (Claude Code)'\n");
    chmodSync(fake, 0o755);
    cpilot(["install", "claude"], {
      cwd: d,
      env: { CPILOT_CLAUDE_BIN: fake, PATH: pathWithCpilot() },
    });
    const settings = JSON.parse(readFileSync(join(d, ".claude/settings.json"), "utf8"));
    expect(settings.hooks.PostToolBatch).toBeUndefined();
    expect(settings.hooks.PostToolUse).toHaveLength(1);
  });
});

describe("run -- claude", () => {
  /** A fake `claude` that records its argv and the settings it got, then does what `body` says. */
  function fakeClaude(d: string, body: string): string {
    const path = join(d, "bin", "claude");
    writeFiles(d, {
      "bin/claude": `#!/bin/bash
if [ "$1" = "--version" ]; then echo "2.1.330 (Claude Code)"; exit 0; fi
printf '%s\\n' "$@" > "${d}/argv.txt"
cat "$2" > "${d}/settings-seen.json"
echo "$CPILOT_RUN_LOG" > "${d}/runlog-path.txt"
echo "$CPILOT_HOOK_SECRET" > "${d}/secret.txt"
${body}
`,
    });
    chmodSync(path, 0o755);
    return path;
  }

  test("passes the settings with cpilot's hooks, the arguments and the exit code; prints a summary", () => {
    const d = dir({ "callbacks.config.json": CONFIG });
    // The fake agent "edits" a file by calling the hook itself, as Claude Code would.
    const claude = fakeClaude(
      d,
      `echo '{"session_id":"r1","cwd":"${d}","hook_event_name":"PostToolBatch","tool_calls":[{"tool_name":"Write","tool_input":{"file_path":"${d}/a.ts"},"tool_use_id":"t1","tool_response":"File created"}]}' | ${binary()} hook claude --session > /dev/null
exit 3`,
    );
    const r = cpilot(["run", "--", claude, "-p", "hello world"], {
      cwd: d,
      env: { AI_AGENT: "claude-code_2-1-330_cli" },
    });
    expect(r.code).toBe(3);
    const argv = readFileSync(join(d, "argv.txt"), "utf8").trim().split("\n");
    expect(argv[0]).toBe("--settings");
    expect(argv.slice(2)).toEqual(["-p", "hello world"]);
    const settings = JSON.parse(readFileSync(join(d, "settings-seen.json"), "utf8"));
    // the gate is a command hook; the calls after edits and at the stop go to the session's
    // listener, the secret read from the agent's environment, never written in the file
    expect(settings.hooks.PreToolUse[0].hooks[0].command).toBe(`${binary()} hook claude --session`);
    for (const event of ["PostToolUse", "PostToolBatch", "Stop"]) {
      expect(settings.hooks[event][0].hooks[0]).toMatchObject({
        type: "http",
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/hook\/claude$/),
        headers: { "X-Cpilot-Hook-Secret": "$CPILOT_HOOK_SECRET" },
        allowedEnvVars: ["CPILOT_HOOK_SECRET"],
      });
    }
    const secret = readFileSync(join(d, "secret.txt"), "utf8").trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(d, "settings-seen.json"), "utf8")).not.toContain(secret);
    expect(r.stderr).toContain("cpilot: 1 callback run this session: 1 passed");
    // The temp settings and run log are gone afterwards.
    expect(existsSync(argv[1] as string)).toBe(false);
    expect(existsSync(readFileSync(join(d, "runlog-path.txt"), "utf8").trim())).toBe(false);
  });

  // A network namespace whose loopback is down: 127.0.0.1 cannot be listened on.
  const noLoopback =
    process.platform === "linux" &&
    spawnSync("unshare", ["-rn", "true"], { stdio: "ignore" }).status === 0;
  test.skipIf(!noLoopback)(
    "when the listener cannot start, the session says so and gets command hooks only",
    () => {
      const d = dir({ "callbacks.config.json": CONFIG });
      const claude = fakeClaude(d, "exit 0");
      const r = spawnSync("unshare", ["-rn", binary(), "run", "--", claude, "-p", "x"], {
        cwd: d,
        env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: d, ...runtimeEnv() },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(r.status).toBe(0);
      expect(r.stderr).toContain("cpilot: Cannot start the hook listener on 127.0.0.1");
      const settings = JSON.parse(readFileSync(join(d, "settings-seen.json"), "utf8"));
      for (const event of ["PreToolUse", "PostToolUse", "PostToolBatch", "Stop"])
        expect(settings.hooks[event][0].hooks[0].command).toBe(`${binary()} hook claude --session`);
      expect(readFileSync(join(d, "secret.txt"), "utf8").trim()).toBe("");
    },
  );

  test("merges a --settings the user passed instead of replacing it", () => {
    const d = dir({
      "callbacks.config.json": CONFIG,
      "mine.json": JSON.stringify({ model: "haiku" }),
    });
    const claude = fakeClaude(d, "exit 0");
    const r = cpilot(["run", claude, "--settings", "mine.json", "-p", "x"], { cwd: d });
    expect(r.code).toBe(0);
    const settings = JSON.parse(readFileSync(join(d, "settings-seen.json"), "utf8"));
    expect(settings.model).toBe("haiku");
    expect(Object.keys(settings.hooks)).toContain("Stop");
    expect(readFileSync(join(d, "argv.txt"), "utf8").trim().split("\n").slice(2)).toEqual([
      "-p",
      "x",
    ]);
  });

  // Each agent sends cpilot a SIGTERM as its first act, as an agent's supervisor may the
  // moment it is up: cpilot had no SIGTERM handler for an instant after the agent started,
  // and died of it, leaving the agent running. Several at once, to make that instant count.
  test("forwards SIGTERM to the agent and exits as it did, even just after the agent started", async () => {
    const session = async (): Promise<{ code: number | null; signal: string }> => {
      const d = dir({ "callbacks.config.json": CONFIG });
      const claude = fakeClaude(
        d,
        `trap 'echo got-term > "${d}/signal.txt"; exit 143' TERM\necho $$ > "${d}/ready.txt"\nkill -TERM $PPID\nwhile true; do sleep 0.05; done`,
      );
      const child = spawn(binary(), ["run", "--", claude], {
        cwd: d,
        env: { PATH: "/usr/bin:/bin", ...runtimeEnv() },
        stdio: "pipe",
      });
      // cpilot's exit, not the pipes' close: an orphaned agent would hold those open forever
      const code = await new Promise<number | null>((r) => child.on("exit", r));
      const signalFile = join(d, "signal.txt");
      const until = Date.now() + 20_000;
      while (!existsSync(signalFile) && Date.now() < until) await Bun.sleep(20);
      if (!existsSync(signalFile)) {
        // the agent never got the signal: end it here, not at the machine's next reboot
        try {
          process.kill(Number(readFileSync(join(d, "ready.txt"), "utf8")), "SIGKILL");
        } catch {}
        return { code, signal: "" };
      }
      return { code, signal: readFileSync(signalFile, "utf8").trim() };
    };
    const results = await Promise.all(Array.from({ length: 10 }, session));
    expect(results).toEqual(Array.from({ length: 10 }, () => ({ code: 143, signal: "got-term" })));
    // ten sessions at once: a busy machine makes this slow, never wrong
  }, 120_000);

  test("an agent killed by a signal: exit 128 + its number", async () => {
    const d = dir({ "callbacks.config.json": CONFIG });
    const claude = fakeClaude(d, "kill -KILL $$");
    const r = cpilot(["run", "--", claude], { cwd: d });
    expect(r.code).toBe(137);
  });

  test("another command runs too (under the watcher, tests/watch), its exit code passed through", () => {
    const r = cpilot(["run", "--", "sh", "-c", "exit 5"], { cwd: "/tmp" });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain("no callbacks.config.ts here");
  });
});
