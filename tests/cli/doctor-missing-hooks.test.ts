/**
 * `cpilot doctor` against what `cpilot install <agent>` writes today: a hook file lacking one
 * of its events (or a tool of its matcher), as an older cpilot wrote it, is a problem with
 * its fix; a fresh install, or the person's own hooks beside cpilot's, are not.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binary, cpilot } from "../agents/claude/_helpers.ts";
import { tempDir } from "../helpers/tmp.ts";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A git project with cpilot on PATH (and no agent CLI), installed for `agents`. */
function installed(...agents: string[]) {
  const dir = tempDir("cpilot-doctor-hooks-", { git: true });
  const home = tempDir("cpilot-doctor-hooks-home-");
  const bin = tempDir("cpilot-doctor-hooks-bin-");
  dirs.push(dir, home, bin);
  symlinkSync(binary(), join(bin, "cpilot"));
  writeFileSync(join(dir, "callbacks.config.json"), JSON.stringify({ callbacks: [] }));
  // Copilot CLI and Gemini CLI run a folder's hooks only where they trust it: these trust it for the run
  const env = {
    HOME: home,
    PATH: `${bin}:/usr/bin:/bin`,
    COPILOT_ALLOW_ALL: "true",
    GEMINI_CLI_TRUST_WORKSPACE: "true",
  };
  for (const agent of agents) {
    const r = cpilot(["install", agent], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
  }
  const doctor = () => cpilot(["doctor", "--json"], { cwd: dir, env });
  const problems = () =>
    Object.fromEntries(
      (JSON.parse(doctor().stdout).agents as { agent: string; problem: string | null }[]).map(
        (a) => [a.agent, a.problem],
      ),
    );
  /** Change the installed file's `hooks` map as an older cpilot (or the person) would have. */
  const edit = (file: string, change: (hooks: Record<string, unknown[]>) => void) => {
    const path = join(dir, file);
    const json = JSON.parse(readFileSync(path, "utf8"));
    change(json.hooks);
    writeFileSync(path, JSON.stringify(json, null, 2));
    return path;
  };
  return { dir, env, doctor, problems, edit };
}

const AGENTS = ["claude", "codex", "qwen", "gemini", "copilot", "cursor"];

describe("cpilot doctor: hooks the current install writes", () => {
  test("a fresh install of every agent lacks none, nor with the person's own hooks; each agent's file without one event is named", () => {
    const p = installed(...AGENTS);
    const own = { type: "command", command: "echo mine" };
    p.edit(".codex/hooks.json", (hooks) => {
      hooks.Notification = [{ hooks: [own] }];
      hooks.PostToolUse?.push({ matcher: "Bash", hooks: [own] });
    });
    p.edit(".github/hooks/cpilot.json", (hooks) => {
      hooks.errorOccurred = [{ type: "command", bash: "echo mine" }];
    });
    const fresh = p.problems();
    for (const agent of AGENTS) expect([agent, fresh[agent]]).toEqual([agent, null]);
    const r = p.doctor();
    expect(r.stdout).not.toContain("older cpilot");
    expect(r.code).toBe(0);

    // one event each, as an install from before it was added lacks it
    const removed: Record<string, [string, string]> = {
      claude: [".claude/settings.json", "SubagentStop"],
      codex: [".codex/hooks.json", "SubagentStop"],
      qwen: [".qwen/settings.json", "SubagentStop"],
      gemini: [".gemini/settings.json", "AfterAgent"],
      copilot: [".github/hooks/cpilot.json", "subagentStop"],
      cursor: [".cursor/hooks.json", "afterFileEdit"],
    };
    for (const [file, event] of Object.values(removed))
      p.edit(file, (hooks) => {
        delete hooks[event];
      });
    const old = p.problems();
    for (const [agent, [file, event]] of Object.entries(removed))
      expect([agent, old[agent]]).toEqual([
        agent,
        `the hooks in ${join(p.dir, file)} are from an older cpilot: it has no cpilot hook for ${event}; run \`cpilot install ${agent}\` again`,
      ]);
    expect(p.doctor().code).toBe(1);
  });

  test("Codex without SubagentStop and SessionStart is named, with the fix, and doctor exits 1", () => {
    const p = installed("codex");
    const path = p.edit(".codex/hooks.json", (hooks) => {
      delete hooks.SubagentStop;
      delete hooks.SessionStart;
    });
    const problem = p.problems().codex;
    expect(problem).toBe(
      `the hooks in ${path} are from an older cpilot: it has no cpilot hook for SessionStart, SubagentStop; run \`cpilot install codex\` again`,
    );
    const r = cpilot(["doctor"], { cwd: p.dir, env: p.env });
    expect(r.stdout).toContain("no cpilot hook for SessionStart, SubagentStop");
    expect(r.code).toBe(1);
    expect(cpilot(["install", "codex"], { cwd: p.dir, env: p.env }).code).toBe(0);
    expect(p.problems().codex).toBeNull();
  });

  test("a tool missing from the matcher is named; the person's own hook on that tool does not stand in for cpilot's", () => {
    const p = installed("claude");
    p.edit(".claude/settings.json", (hooks) => {
      const group = hooks.PostToolUse?.[0] as { matcher: string };
      group.matcher = group.matcher.replace("|Skill", "");
      hooks.PostToolUse?.push({ matcher: "Skill", hooks: [{ type: "command", command: "true" }] });
    });
    expect(p.problems().claude).toContain("it has no cpilot hook for PostToolUse on Skill;");
  });
});
