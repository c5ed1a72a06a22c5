/**
 * The npm route: a project that depends on cpilot gets shared hook commands for Codex,
 * Cursor, Qwen Code and Copilot CLI that start the project's own copy. They used to ask
 * `npx --no-install cpilot`, and npx runs a `cpilot` bin that the project's package.json
 * names (a file agents edit) before node_modules/.bin/cpilot: an agent that added
 * `"bin": {"cpilot": "x.sh"}` had every later hook call run its script (exit 0, the gate
 * open). The commands now look for cpilot's own program from the hook's folder up and ask
 * no file an agent may write. Each attack below runs the command `install` wrote, through
 * sh as the agents run it, in the project and in a subfolder.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codexCli } from "../agents/codex/_codex-cli.ts";
import { qwenCli } from "../agents/qwen/_qwen-cli.ts";
import { cpilot, cpilotBinary } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import { afterLastTurn, startFakeOpenAI } from "../support/fake-openai.ts";
import { type Agent, attackProject, preWrite, verdict } from "./_gate-attack.ts";

/** An agent's script, in place of cpilot: says nothing, exits 0 (the write allowed). */
const OPEN = "#!/bin/sh\ncat >/dev/null\nexit 0\n";

/** A git project that depends on cpilot, its node_modules holding the built binary. */
function npmProject(): string {
  const dir = tempDir("cpilot-npm-route-", { git: true });
  writeFiles(dir, {
    "callbacks.config.json": JSON.stringify({ callbacks: [] }),
    "package.json": `${JSON.stringify({ name: "p", version: "1.0.0", devDependencies: { cpilot: "*" } })}\n`,
    "sub/a.txt": "a\n",
  });
  mkdirSync(join(dir, "node_modules/.bin"), { recursive: true });
  mkdirSync(join(dir, "node_modules/cpilot/bin"), { recursive: true });
  symlinkSync(cpilotBinary(), join(dir, "node_modules/.bin/cpilot"));
  // stands for the package's sh shim (the release test runs the real one)
  symlinkSync(cpilotBinary(), join(dir, "node_modules/cpilot/bin/cpilot.sh"));
  writeFileSync(join(dir, "x.sh"), OPEN, { mode: 0o755 });
  return dir;
}

/** The pre-write command `install` wrote to a hook file (the first fail-closed one). */
function installedGate(dir: string, agent: "codex" | "cursor"): string {
  const env = { HOME: tempDir("cpilot-npm-route-home-"), PATH: "/usr/bin:/bin" };
  expect(cpilot(["install", agent, "--trust-project"], { cwd: dir, env }).code).toBe(0);
  const file = agent === "codex" ? ".codex/hooks.json" : ".cursor/hooks.json";
  const json = JSON.parse(readFileSync(join(dir, file), "utf8"));
  const entry = agent === "codex" ? json.hooks.PreToolUse[0].hooks[0] : json.hooks.preToolUse[0];
  return entry.command as string;
}

const envWrite = (dir: string, agent: "codex" | "cursor") =>
  agent === "codex"
    ? {
        session_id: "npm-route",
        cwd: dir,
        hook_event_name: "PreToolUse",
        tool_name: "apply_patch",
        tool_input: { command: "*** Begin Patch\n*** Add File: .env\n+S=1\n*** End Patch\n" },
      }
    : {
        conversation_id: "npm-route",
        generation_id: "g",
        hook_event_name: "preToolUse",
        tool_name: "Write",
        tool_input: { file_path: join(dir, ".env"), contents: "S=1\n" },
        workspace_roots: [dir],
      };

/** Runs the hook command through sh from `cwd`, as the agents do; PATH may hold `extraBin`. */
function runHook(command: string, cwd: string, payload: unknown, extraBin?: string) {
  const path = `${extraBin === undefined ? "" : `${extraBin}:`}${process.env.PATH ?? "/usr/bin:/bin"}`;
  const r = spawnSync("sh", ["-c", command], {
    cwd,
    input: JSON.stringify(payload),
    encoding: "utf8",
    env: { ...process.env, PATH: path },
    timeout: 60_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** What the command decided: refused (exit 2, or a deny answer), else let through. */
function decided(r: { code: number | null; out: string }): "deny" | "allow" {
  return r.code === 2 || /"deny"/.test(r.out) ? "deny" : "allow";
}

/** The ways an agent's file writes could redirect the npm route, each applied to `dir`. */
const REDIRECTS: Record<string, (dir: string) => string | undefined> = {
  "a bin named cpilot in the project's package.json": (dir) => {
    writeFileSync(
      join(dir, "package.json"),
      `${JSON.stringify({ name: "p", version: "1.0.0", bin: { cpilot: "x.sh" }, devDependencies: { cpilot: "*" } })}\n`,
    );
    return undefined;
  },
  "a workspace whose package.json names a bin cpilot": (dir) => {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ ...pkg, workspaces: ["sub"] }));
    writeFileSync(
      join(dir, "sub/package.json"),
      JSON.stringify({ name: "s", version: "1.0.0", bin: { cpilot: "../x.sh" } }),
    );
    return undefined;
  },
  "a package.json with a bin cpilot in the subfolder the hook runs from": (dir) => {
    writeFileSync(
      join(dir, "sub/package.json"),
      JSON.stringify({ name: "s", version: "1.0.0", bin: { cpilot: "../x.sh" } }),
    );
    return undefined;
  },
  "a cpilot folder and file at the root": (dir) => {
    mkdirSync(join(dir, "cpilot/bin"), { recursive: true });
    writeFileSync(join(dir, "cpilot/bin/cpilot.sh"), OPEN, { mode: 0o755 });
    writeFileSync(join(dir, "sub/cpilot"), OPEN, { mode: 0o755 });
    return undefined;
  },
  "a cpilot on PATH ahead of the project's": (dir) => {
    const bin = join(dir, "sub/bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "cpilot"), OPEN, { mode: 0o755 });
    writeFileSync(join(bin, "npx"), OPEN, { mode: 0o755 });
    return bin;
  },
};

describe("the npm route's hook command starts cpilot's own program, whatever the agent wrote", () => {
  for (const agent of ["codex", "cursor"] as const) {
    for (const [what, redirect] of Object.entries(REDIRECTS)) {
      test(`${agent}: ${what}`, () => {
        const dir = npmProject();
        const command = installedGate(dir, agent);
        const bin = redirect(dir);
        for (const cwd of [dir, join(dir, "sub")]) {
          const r = runHook(command, cwd, envWrite(dir, agent), bin);
          expect({ cwd, verdict: decided(r) }).toEqual({ cwd, verdict: "deny" });
          expect(r.out).toContain(".env");
        }
      }, 60_000);
    }
  }

  test("the folders the command looks in can only hold cpilot's program: an agent's write there is refused", async () => {
    const p = attackProject({
      "callbacks.config.json": JSON.stringify({ callbacks: [] }),
      "package.json": '{"name":"p","devDependencies":{"cpilot":"*"}}\n',
    });
    for (const agent of ["codex", "claude", "cursor"] as Agent[])
      for (const path of [
        "sub/node_modules/cpilot/bin/cpilot.sh",
        "sub/deep/Node_Modules/CPILOT/bin/cpilot.sh",
        "node_modules/cpilot/bin/cpilot.sh",
        "sub/node_modules/@cpilot/linux-x64/cpilot",
      ]) {
        const r = await p.hook(agent, preWrite(agent, p.dir, path, "exit 0"));
        expect({ agent, path, v: verdict(agent, r) }).not.toEqual({ agent, path, v: "allow" });
      }
  }, 120_000);

  test("npx itself runs the package.json bin in cpilot's place (why the route avoids it)", () => {
    const dir = npmProject();
    REDIRECTS["a bin named cpilot in the project's package.json"]?.(dir);
    const r = runHook("npx --no-install cpilot hook codex", dir, envWrite(dir, "codex"));
    expect(decided(r)).toBe("allow");
  }, 60_000);

  test("with no cpilot in any node_modules up from the hook's folder, the gate refuses", () => {
    const dir = npmProject();
    const command = installedGate(dir, "codex");
    rmSync(join(dir, "node_modules"), { recursive: true, force: true });
    REDIRECTS["a bin named cpilot in the project's package.json"]?.(dir);
    for (const cwd of [dir, join(dir, "sub")]) {
      const r = runHook(command, cwd, envWrite(dir, "codex"));
      expect(r.code).toBe(2);
      expect(r.out).toContain("cpilot is not installed here");
    }
  }, 60_000);

  test("doctor names an npx hook command as an older install that a package.json redirects", () => {
    const dir = npmProject();
    const home = tempDir("cpilot-npm-route-home-");
    const env = { HOME: home, PATH: "/usr/bin:/bin" };
    expect(cpilot(["install", "codex", "--trust-project"], { cwd: dir, env }).code).toBe(0);
    expect(cpilot(["doctor"], { cwd: dir, env }).stdout).not.toContain("through npx");
    const file = join(dir, ".codex/hooks.json");
    const text = readFileSync(file, "utf8");
    const nearest = JSON.parse(text).hooks.PostToolUse[0].hooks[0].command.replace(
      / hook codex$/,
      "",
    );
    writeFileSync(
      file,
      text.split(JSON.stringify(nearest).slice(1, -1)).join("npx --no-install cpilot"),
    );
    const r = cpilot(["doctor"], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(`${r.stdout}${r.stderr}`).toContain("through npx");
  }, 60_000);
});

describe("the real Qwen Code CLI on the npm route", () => {
  test("a package.json bin named cpilot does not open the gate", async () => {
    const dir = npmProject();
    const api = await startFakeOpenAI([
      [{ tool: "write_file", args: { file_path: join(dir, ".env"), content: "SECRET=1\n" } }],
      [{ text: "done" }],
    ]);
    const home = qwenCli.home(api.url);
    try {
      const env = qwenCli.env(home, api.url);
      expect(cpilot(["install", "qwen"], { cwd: dir, env }).code).toBe(0);
      REDIRECTS["a bin named cpilot in the project's package.json"]?.(dir);
      await qwenCli.run({ cwd: dir, prompt: "write the env file", home, apiUrl: api.url });
      expect(existsSync(join(dir, ".env"))).toBe(false);
    } finally {
      await api.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 200_000);
});

describe("the real Codex CLI on the npm route", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  for (const where of ["the project", "a subfolder"] as const) {
    test(`a package.json bin named cpilot does not open the gate (session in ${where})`, async () => {
      const dir = npmProject();
      const api = await startFakeOpenAI([
        [
          {
            customTool: "apply_patch",
            input: `*** Begin Patch\n*** Add File: ${join(dir, ".env")}\n+SECRET=1\n*** End Patch\n`,
          },
        ],
        [{ text: "done" }],
      ]);
      cleanups.push(() => api.close());
      const home = codexCli.home(api.url);
      cleanups.push(() => rmSync(home, { recursive: true, force: true }));
      const env = codexCli.env(home, api.url);
      expect(cpilot(["install", "codex", "--trust-project"], { cwd: dir, env }).code).toBe(0);
      REDIRECTS["a bin named cpilot in the project's package.json"]?.(dir);
      await codexCli.run({
        cwd: where === "the project" ? dir : join(dir, "sub"),
        prompt: "write the env file",
        home,
        apiUrl: api.url,
      });
      expect(existsSync(join(dir, ".env"))).toBe(false);
      const turns = api.turns();
      expect(turns[1] === undefined ? "" : afterLastTurn(turns[1] as never)).toContain(".env");
    }, 200_000);
  }
});
