/** `cpilot install <agent> --mcp`: merged into each agent's config, idempotent, removed cleanly. */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeTomlServer, upsertTomlServer } from "../../src/mcp/install/codex-toml.ts";
import { installMcp, uninstallMcp } from "../../src/mcp/install/index.ts";
import { tempDir } from "../helpers/tmp.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function temp(): string {
  const d = tempDir("cpilot-mcp-install-");
  dirs.push(d);
  return d;
}
// biome-ignore lint/suspicious/noTemplateCurlyInString: Cursor's own variable syntax
const WORKSPACE = "${workspaceFolder}";
const json = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

describe("JSON configs (Claude Code, Gemini CLI, Cursor)", () => {
  test("Claude Code .mcp.json: created, idempotent, removed with the file it created", () => {
    const root = temp();
    const opts = { root, command: "/opt/cpilot" };
    expect(installMcp("claude", opts).action).toBe("created");
    expect(json(join(root, ".mcp.json"))).toEqual({
      mcpServers: { cpilot: { type: "stdio", command: "/opt/cpilot", args: ["mcp"] } },
    });
    const before = readFileSync(join(root, ".mcp.json"), "utf8");
    expect(installMcp("claude", opts).action).toBe("unchanged");
    expect(readFileSync(join(root, ".mcp.json"), "utf8")).toBe(before);
    expect(uninstallMcp("claude", opts).action).toBe("removed");
    expect(existsSync(join(root, ".mcp.json"))).toBe(false);
    expect(uninstallMcp("claude", opts).action).toBe("absent");
  });

  test("merges without clobbering other servers, settings, or keys the user added to ours", () => {
    const root = temp();
    mkdirSync(join(root, ".gemini"));
    const settings = join(root, ".gemini", "settings.json");
    writeFileSync(
      settings,
      `${JSON.stringify(
        {
          theme: "dark",
          mcpServers: {
            other: { command: "other-server", args: ["--x"] },
            cpilot: { command: "old", args: [], env: { KEEP: "1" }, timeout: 30000 },
          },
        },
        null,
        4,
      )}\n`,
    );
    expect(installMcp("gemini", { root, command: "cpilot" }).action).toBe("updated");
    const after = json(settings) as { theme: string; mcpServers: Record<string, unknown> };
    expect(after.theme).toBe("dark");
    expect(after.mcpServers.other).toEqual({ command: "other-server", args: ["--x"] });
    expect(after.mcpServers.cpilot).toEqual({
      command: "cpilot",
      args: ["mcp"],
      env: { KEEP: "1" },
      timeout: 30000,
    });
    expect(readFileSync(settings, "utf8")).toContain('\n    "theme"');
    expect(uninstallMcp("gemini", { root }).action).toBe("removed");
    expect(json(settings)).toEqual({
      theme: "dark",
      mcpServers: { other: { command: "other-server", args: ["--x"] } },
    });
  });

  test("Cursor .cursor/mcp.json passes the workspace folder as the root", () => {
    const root = temp();
    const r = installMcp("cursor", { root, command: "cpilot" });
    expect(r.path).toBe(join(root, ".cursor", "mcp.json"));
    expect(json(r.path)).toEqual({
      mcpServers: { cpilot: { command: "cpilot", args: ["mcp", "--root", WORKSPACE] } },
    });
  });

  test("a file that is not plain JSON is refused, untouched", () => {
    const root = temp();
    writeFileSync(join(root, ".mcp.json"), "{ // comment\n}");
    expect(() => installMcp("claude", { root })).toThrow(/not plain JSON/);
    expect(readFileSync(join(root, ".mcp.json"), "utf8")).toBe("{ // comment\n}");
  });

  test("an unknown agent is a usage error", () => {
    expect(() => installMcp("vim", { root: temp() })).toThrow(
      /cpilot knows claude, gemini, cursor, codex/,
    );
  });
});

describe("Codex ~/.codex/config.toml", () => {
  const EXISTING = `# my codex config
model = "o4"
notify = ["notify-send", "done"]

[mcp_servers.docs]
command = "docs-server"
args = [
  "--port",
  "[mcp_servers.cpilot]",
]
description = """
[mcp_servers.cpilot]
not a header, a string
"""

# profile below
[profiles.fast]
model = "o4-mini"
`;

  test("quoted keys with TOML-only escapes (\\U, \\e) are read, not a crash", () => {
    const before = `[profiles."fast\\U0001F600"]\nmodel = "o4"\n"tab\\e" = 1\n`;
    const { text } = upsertTomlServer(
      before,
      "cpilot",
      { command: "cpilot", args: ["mcp"] },
      "c.toml",
    );
    expect(text.startsWith(before)).toBe(true);
    expect(removeTomlServer(text, "cpilot", "c.toml").text).toBe(before);
  });

  test("adds only its table; idempotent; removal gives the file back byte for byte", () => {
    const home = temp();
    const file = join(home, "config.toml");
    writeFileSync(file, EXISTING);
    const env = { CODEX_HOME: home };
    expect(
      installMcp("codex", { root: temp(), command: "/bin/cpilot", env, user: true }).action,
    ).toBe("updated");
    const after = readFileSync(file, "utf8");
    expect(after).toBe(
      `${EXISTING}\n[mcp_servers.cpilot]\ncommand = "/bin/cpilot"\nargs = ["mcp"]\n`,
    );
    expect(
      installMcp("codex", { root: temp(), command: "/bin/cpilot", env, user: true }).action,
    ).toBe("unchanged");
    expect(uninstallMcp("codex", { root: temp(), env, user: true }).action).toBe("removed");
    expect(readFileSync(file, "utf8")).toBe(EXISTING);
  });

  test("without --user: the project's .codex/config.toml, and the home's stays untouched", () => {
    const home = temp();
    const root = temp();
    const r = installMcp("codex", { root, command: "cpilot", env: { HOME: home } });
    expect(r.path).toBe(join(root, ".codex", "config.toml"));
    expect(readFileSync(r.path, "utf8")).toContain("[mcp_servers.cpilot]");
    expect(existsSync(join(home, ".codex", "config.toml"))).toBe(false);
    expect(() => installMcp("claude", { root, env: { HOME: home }, user: true })).toThrow(
      /Cannot use --user with --mcp for claude/,
    );
  });

  test("creates the file (and ~/.codex) when missing; uninstall deletes what only it held", () => {
    const home = temp();
    const env = { HOME: home };
    const r = installMcp("codex", { root: temp(), command: "cpilot", env, user: true });
    expect(r.path).toBe(join(home, ".codex", "config.toml"));
    expect(r.action).toBe("created");
    expect(readFileSync(r.path, "utf8")).toBe(
      '[mcp_servers.cpilot]\ncommand = "cpilot"\nargs = ["mcp"]\n',
    );
    expect(uninstallMcp("codex", { root: temp(), env, user: true }).action).toBe("removed");
    expect(existsSync(r.path)).toBe(false);
  });

  test("an existing cpilot table: only command and args change; other keys and subtables stay", () => {
    const text = `[mcp_servers.cpilot]
command = "old-cpilot" # was here
startup_timeout_sec = 30
args = [
  "mcp",
  "--old",
]

[mcp_servers.cpilot.env]
FOO = "bar"

[other]
x = 1
`;
    const { text: out, action } = upsertTomlServer(text, "cpilot", {
      command: "cpilot",
      args: ["mcp"],
    });
    expect(action).toBe("updated");
    expect(out).toBe(`[mcp_servers.cpilot]
command = "cpilot"
startup_timeout_sec = 30
args = ["mcp"]

[mcp_servers.cpilot.env]
FOO = "bar"

[other]
x = 1
`);
    const removed = removeTomlServer(out, "cpilot");
    expect(removed.text).toBe("\n[other]\nx = 1\n".replace(/^\n/, ""));
  });

  test("other spellings of the entry are refused rather than doubled", () => {
    for (const text of [
      '[mcp_servers]\ncpilot = { command = "x" }\n',
      'mcp_servers.cpilot.command = "x"\n',
      '[mcp_servers]\ncpilot.command = "x"\n',
    ]) {
      expect(() => upsertTomlServer(text, "cpilot", { command: "c", args: [] })).toThrow(
        /dotted key or inline table/,
      );
    }
    expect(() =>
      upsertTomlServer('x = "unterminated\n', "cpilot", { command: "c", args: [] }),
    ).toThrow(/Cannot edit/);
  });

  test("quoted header spelling is found", () => {
    const text = '[mcp_servers."cpilot"]\ncommand = "old"\nargs = []\n';
    const { text: out } = upsertTomlServer(text, "cpilot", { command: "new", args: ["mcp"] });
    expect(out).toBe('[mcp_servers."cpilot"]\ncommand = "new"\nargs = ["mcp"]\n');
  });
});

describe("the CLI", () => {
  test("cpilot install/uninstall <agent> --mcp through the binary", async () => {
    const { spawnSync } = await import("node:child_process");
    const { mcpBinary } = await import("./_client.ts");
    const cpilot = (args: string[], o: { cwd: string; env: Record<string, string> }) => {
      const r = spawnSync(mcpBinary(), args, {
        cwd: o.cwd,
        env: { PATH: "/usr/local/bin:/usr/bin:/bin", ...o.env },
        encoding: "utf8",
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const root = temp();
    const home = temp();
    writeFileSync(join(root, "callbacks.config.json"), '{"callbacks":[]}');
    let r = cpilot(["install", "claude", "--mcp"], { cwd: root, env: { HOME: home } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("created");
    const entry = (json(join(root, ".mcp.json")) as { mcpServers: { cpilot: { command: string } } })
      .mcpServers.cpilot;
    // The compiled binary registers itself by absolute path.
    expect(entry.command).toBe(mcpBinary());
    r = cpilot(["install", "claude", "--mcp"], { cwd: root, env: { HOME: home } });
    expect(r.stderr).toContain("nothing changed");
    r = cpilot(["install", "codex", "--mcp", "--command", "cpilot"], {
      cwd: root,
      env: { HOME: home },
    });
    expect(r.code).toBe(0);
    expect(readFileSync(join(root, ".codex", "config.toml"), "utf8")).toContain(
      "[mcp_servers.cpilot]",
    );
    expect(existsSync(join(home, ".codex", "config.toml"))).toBe(false);
    r = cpilot(["install", "codex", "--mcp", "--user", "--command", "cpilot"], {
      cwd: root,
      env: { HOME: home },
    });
    expect(r.code).toBe(0);
    expect(readFileSync(join(home, ".codex", "config.toml"), "utf8")).toContain(
      "[mcp_servers.cpilot]",
    );
    r = cpilot(["uninstall", "claude", "--mcp"], { cwd: root, env: { HOME: home } });
    expect(r.code).toBe(0);
    expect(existsSync(join(root, ".mcp.json"))).toBe(false);
    r = cpilot(["install", "emacs", "--mcp"], { cwd: root, env: { HOME: home } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("cpilot knows claude, gemini, cursor, codex");
  });
});

describe("Copilot CLI", () => {
  test("the project's .mcp.json (Claude Code's entry), or $COPILOT_HOME/mcp-config.json with --user", () => {
    const root = temp();
    const home = temp();
    const project = installMcp("copilot", { root, command: "cpilot", env: { COPILOT_HOME: home } });
    expect(project.path).toBe(join(root, ".mcp.json"));
    expect(JSON.parse(readFileSync(project.path, "utf8")).mcpServers.cpilot).toEqual({
      type: "stdio",
      command: "cpilot",
      args: ["mcp"],
    });
    const user = installMcp("copilot", {
      root,
      command: "cpilot",
      env: { COPILOT_HOME: home },
      user: true,
    });
    expect(user.path).toBe(join(home, "mcp-config.json"));
  });
});
