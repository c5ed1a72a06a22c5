/**
 * Attacks on the write gate through the compiled binary, as an agent (or a config gone
 * wrong) would make them: every pre-write hook must end in a verdict, and the verdict must
 * hold for the file the kernel will really write.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "../helpers/tmp.ts";
import { type Agent, attackProject, preWrite, reasonOf, verdict } from "./_gate-attack.ts";

const JSON_CONFIG = { "callbacks.config.json": '{ "callbacks": [] }\n' };
const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n");
const codexPatch = (dir: string, text: string) => ({
  session_id: "attack",
  cwd: dir,
  hook_event_name: "PreToolUse",
  tool_name: "apply_patch",
  tool_input: { command: text },
});

describe("paths are checked where the kernel lands them (issue 16, item 6)", () => {
  // Codex 0.169 drops `.` and `..` by name before it follows any link (the differential
  // test in tests/agents/kit/patch/ shows where its binary writes): the gate checks there.
  test("codex: `lnk/../../x` with lnk -> a folder inside the root lands outside it: denied", async () => {
    const p = attackProject(JSON_CONFIG);
    mkdirSync(p.path("deep/a"), { recursive: true });
    symlinkSync(p.path("deep/a"), p.path("lnk"));
    const r = await p.hook(
      "codex",
      codexPatch(p.dir, patch("*** Add File: lnk/../../x", "+pwned")),
    );
    expect(verdict("codex", r)).toBe("deny");
    expect(reasonOf(r)).toContain("outside the project root");
  });

  test("codex: through hk -> .git/hooks is denied; `hk/../hooks/x` is hooks/x beside hk", async () => {
    const p = attackProject(JSON_CONFIG);
    symlinkSync(p.path(".git/hooks"), p.path("hk"));
    const through = await p.hook(
      "codex",
      codexPatch(p.dir, patch("*** Add File: hk/pre-commit", "+#!/bin/sh")),
    );
    expect(verdict("codex", through)).toBe("deny");
    expect(reasonOf(through)).toContain(".git");
    const beside = await p.hook(
      "codex",
      codexPatch(p.dir, patch("*** Add File: hk/../hooks/pre-commit", "+#!/bin/sh")),
    );
    expect(verdict("codex", beside)).toBe("allow");
  });

  for (const agent of ["claude", "gemini", "cursor"] as Agent[]) {
    test(`${agent}: an absolute path through a link and .. lands in .git/hooks: denied`, async () => {
      const p = attackProject(JSON_CONFIG);
      symlinkSync(p.path(".git/hooks"), p.path("hk"));
      const r = await p.hook(agent, preWrite(agent, p.dir, `${p.dir}/hk/../hooks/pre-commit`));
      expect(verdict(agent, r)).toBe("deny");
    });
  }
});

describe("cpilot's own config files are protected by default (issue 16, item 4)", () => {
  const ALL: Agent[] = ["claude", "codex", "gemini", "cursor"];
  const targets = [
    "callbacks.config.json",
    "callbacks.config.ts",
    "callbacks.managed.json",
    "sub/callbacks.config.yaml",
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".gemini/settings.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".cursor/hooks.json",
    ".opencode/plugins/cpilot.ts",
  ];
  for (const agent of ALL) {
    test(`${agent}: writing a config file is refused, saying how the person changes it`, async () => {
      // a config that allows everything by rule: the protection is not a rule it can undo
      const p = attackProject({
        "callbacks.config.json": JSON.stringify({
          callbacks: [],
          gate: { rules: [{ action: "allow", pattern: "**" }] },
        }),
      });
      for (const target of targets) {
        const r = await p.hook(agent, preWrite(agent, p.dir, target, '{"gate":{}}'));
        // Claude Code can ask the person; the others deny
        expect(verdict(agent, r)).toBe(agent === "claude" ? "ask" : "deny");
        expect(reasonOf(r)).toContain("let them make it");
      }
    });
  }

  test("the attack it stops: turn the git protection off, then write a git hook", async () => {
    const p = attackProject(JSON_CONFIG);
    const off = JSON.stringify({ callbacks: [], gate: { defaults: { git: false } } });
    const r = await p.hook("codex", preWrite("codex", p.dir, "callbacks.config.json", off));
    expect(verdict("codex", r)).toBe("deny");
  });

  test("a file the config imports is the config too; case variants of the names are caught", async () => {
    const p = attackProject({
      "gate-rules.ts": "export const rules = [];\n",
      "callbacks.config.ts":
        'import { rules } from "./gate-rules";\nexport default { callbacks: [], gate: { rules } };\n',
    });
    for (const target of ["gate-rules.ts", "CALLBACKS.CONFIG.TS", "Callbacks.Managed.Json"]) {
      const r = await p.hook("codex", preWrite("codex", p.dir, target));
      expect({ target, verdict: verdict("codex", r) }).toEqual({ target, verdict: "deny" });
    }
    const other = await p.hook("codex", preWrite("codex", p.dir, "src/rules.ts"));
    expect(verdict("codex", other)).toBe("allow");
  });

  test("the person can let agents write them: gate.defaults.configFiles: false", async () => {
    const p = attackProject({
      "callbacks.config.json": JSON.stringify({
        callbacks: [],
        gate: { defaults: { configFiles: false } },
      }),
    });
    const r = await p.hook("claude", preWrite("claude", p.dir, "callbacks.config.json"));
    expect(verdict("claude", r)).toBe("allow");
  });

  test("callbacks.managed.json cannot carry gate settings (what callback_upsert writes)", async () => {
    const p = attackProject({
      ...JSON_CONFIG,
      "callbacks.managed.json": JSON.stringify({
        callbacks: [],
        gate: { defaults: { git: false, configFiles: false } },
      }),
    });
    const r = await p.hook("claude", preWrite("claude", p.dir, ".git/hooks/pre-commit"));
    expect(verdict("claude", r)).toBe("deny");
  });
});

describe("the agent's own state folders are allowed (issue 16, item 20)", () => {
  test("claude: plan mode writes ~/.claude/plans/<name>.md", async () => {
    const home = tempDir("cpilot-home-");
    mkdirSync(join(home, ".claude", "plans"), { recursive: true });
    const p = attackProject(JSON_CONFIG);
    const env = { HOME: home };
    const plan = await p.hook(
      "claude",
      preWrite("claude", p.dir, join(home, ".claude/plans/fuzzy-plan.md"), "# Plan\n"),
      { env },
    );
    expect(verdict("claude", plan)).toBe("allow");
    const todo = await p.hook(
      "claude",
      preWrite("claude", p.dir, join(home, ".claude/todos/t.json")),
      {
        env,
      },
    );
    expect(verdict("claude", todo)).toBe("allow");
    // only those folders: the agent's settings beside them stay out of reach
    for (const path of [".claude/settings.json", ".claude/plans/../settings.json", ".bashrc"]) {
      const r = await p.hook("claude", preWrite("claude", p.dir, join(home, path)), { env });
      expect(verdict("claude", r)).toBe("deny");
    }
  });

  test("a link in the plans folder cannot lead a write out of it", async () => {
    const home = tempDir("cpilot-home-");
    mkdirSync(join(home, ".claude", "plans"), { recursive: true });
    const p = attackProject(JSON_CONFIG);
    symlinkSync(p.path(".git/hooks"), join(home, ".claude/plans/hk"));
    symlinkSync(join(home, ".bashrc"), join(home, ".claude/plans/rc.md"));
    for (const path of ["hk/pre-commit", "rc.md"]) {
      const r = await p.hook(
        "claude",
        preWrite("claude", p.dir, join(home, ".claude/plans", path)),
        {
          env: { HOME: home },
        },
      );
      expect(verdict("claude", r)).toBe("deny");
    }
  });

  test("gemini's ~/.gemini/tmp and cursor's ~/.cursor/plans", async () => {
    const home = tempDir("cpilot-home-");
    const p = attackProject(JSON_CONFIG);
    const env = { env: { HOME: home } };
    const gemini = await p.hook(
      "gemini",
      preWrite("gemini", p.dir, join(home, ".gemini/tmp/abc/plans/p.md")),
      env,
    );
    expect(verdict("gemini", gemini)).toBe("allow");
    const cursor = await p.hook(
      "cursor",
      preWrite("cursor", p.dir, join(home, ".cursor/plans/p.md")),
      env,
    );
    expect(verdict("cursor", cursor)).toBe("allow");
    const settings = await p.hook(
      "gemini",
      preWrite("gemini", p.dir, join(home, ".gemini/settings.json")),
      env,
    );
    expect(verdict("gemini", settings)).toBe("deny");
  });

  test("another agent's plans folder is not this agent's", async () => {
    const home = tempDir("cpilot-home-");
    const p = attackProject(JSON_CONFIG);
    const r = await p.hook("gemini", preWrite("gemini", p.dir, join(home, ".claude/plans/x.md")), {
      env: { HOME: home },
    });
    expect(verdict("gemini", r)).toBe("deny");
  });
});

const ALL_AGENTS: Agent[] = ["claude", "codex", "gemini", "cursor"];
/** A short load deadline keeps the hanging configs' tests quick; the fix is the verdict, not the time. */
const FAST = { CPILOT_CONFIG_LOAD_TIMEOUT_MS: "2000" };
/** Each hanging call waits out its deadline: room for a few on a busy machine. */
const SLOW_TEST = 60_000;
const tsConfig = (body: string) => ({
  "callbacks.config.ts": `${body}\nexport default { callbacks: [] };\n`,
});

describe("the files a config imports, however deep, are the config's", () => {
  const project = () =>
    attackProject({
      "callbacks.config.ts":
        'import { rules } from "./lib/rules.ts";\nimport { more } from "@acme/gate-rules";\nexport default { callbacks: [], gate: { rules: [...rules, ...more] } };\n',
      "lib/rules.ts":
        'import { reason } from "./deep";\nexport const rules = [{ action: "deny" as const, pattern: "vendor/", reason }];\n',
      "lib/deep.ts": 'export const reason = "vendored: use scripts/vendor.sh";\n',
      // a workspace package, linked into node_modules as npm and bun link them
      "packages/gate-rules/package.json": '{ "name": "@acme/gate-rules", "main": "index.ts" }\n',
      "packages/gate-rules/index.ts":
        'import { pattern } from "./pattern.ts";\nexport const more = [{ action: "deny" as const, pattern, reason: "generated" }];\n',
      "packages/gate-rules/pattern.ts": 'export const pattern = "gen/";\n',
    });
  for (const agent of ALL_AGENTS) {
    test(
      `${agent}: two imports down, and through a workspace package, writes are denied`,
      async () => {
        const p = project();
        mkdirSync(join(p.dir, "node_modules/@acme"), { recursive: true });
        symlinkSync("../../packages/gate-rules", join(p.dir, "node_modules/@acme/gate-rules"));
        expect(verdict(agent, await p.hook(agent, preWrite(agent, p.dir, "gen/x.js")))).toBe(
          "deny",
        );
        for (const target of [
          "lib/deep.ts",
          "lib/deep.js",
          "packages/gate-rules/index.ts",
          "packages/gate-rules/pattern.ts",
          "node_modules/@acme/gate-rules/pattern.ts",
        ]) {
          const r = await p.hook(agent, preWrite(agent, p.dir, target));
          // Claude Code asks the person, as for the config itself; the others deny.
          const refused = agent === "claude" ? "ask" : "deny";
          expect({ target, verdict: verdict(agent, r) }).toEqual({ target, verdict: refused });
          expect(reasonOf(r)).toContain("a file cpilot's config imports");
        }
        const other = await p.hook(agent, preWrite(agent, p.dir, "packages/other/index.ts"));
        expect(verdict(agent, other)).toBe("allow");
      },
      SLOW_TEST,
    );
  }

  // However it got broken (by the person, or through an import no scan can see), a config
  // that does not load does not open the gate: its rules still hold, as in cpilot mcp.
  test(
    "a config that a broken import stops from loading: vendor/ stays denied",
    async () => {
      const p = project();
      writeFileSync(join(p.dir, "lib/deep.ts"), 'throw new Error("broken");\n');
      for (const agent of ALL_AGENTS) {
        const after = await p.hook(agent, preWrite(agent, p.dir, "vendor/x.js"));
        expect(verdict(agent, after)).toBe("deny");
        expect(reasonOf(after)).toContain("config did not load");
      }
    },
    SLOW_TEST,
  );
});

describe("an agent whose folder holds no config, writing into a project that has one", () => {
  // A parent folder of several projects, or a folder added to the session: the call's cwd
  // finds no config, the written file's folder does. Its gate decides.
  for (const agent of ALL_AGENTS) {
    test(`${agent}: the project's gate still decides`, async () => {
      const p = attackProject({
        "callbacks.config.json": JSON.stringify({
          callbacks: [],
          gate: { rules: [{ action: "deny", pattern: "vendor/", reason: "vendored" }] },
        }),
      });
      const parent = dirname(p.dir);
      for (const target of ["vendor/x.js", ".git/hooks/pre-commit", ".env"]) {
        const r = await p.hook(agent, preWrite(agent, parent, join(p.dir, target)));
        expect({ target, verdict: verdict(agent, r) }).toEqual({ target, verdict: "deny" });
      }
      const plain = await p.hook(agent, preWrite(agent, parent, join(p.dir, "src/a.ts")));
      expect(verdict(agent, plain)).toBe("allow");
    });
  }
});

describe("the gate's plugins are the gate's", () => {
  // A plugin that allows all but vendor/: rewritten by the agent, it would allow vendor/ too.
  const plugin =
    '#!/bin/bash\nif grep -q vendor/; then echo \'{"decision":"deny","reason":"no vendor"}\'; else echo \'{"decision":"allow"}\'; fi\n';
  for (const agent of ALL_AGENTS) {
    test(
      `${agent}: the files plugins run, what they import, and a plugins folder are refused`,
      async () => {
        const p = attackProject({
          "callbacks.config.json": JSON.stringify({
            callbacks: [],
            gate: {
              plugins: [
                { command: ["./policy.sh"], name: "p" },
                { command: `${process.execPath} scripts/policy.ts --strict`, name: "p2" },
              ],
              pluginsDir: "tools/gate",
            },
          }),
          "policy.sh": plugin,
          "scripts/policy.ts":
            'import "./shared.ts";\nconsole.log(JSON.stringify({ decision: "allow" }));\n',
          "scripts/shared.ts": "export {};\n",
          "tools/gate/10-check.sh": plugin,
        });
        for (const file of ["policy.sh", "tools/gate/10-check.sh"])
          chmodSync(join(p.dir, file), 0o755);
        const refused = agent === "claude" ? "ask" : "deny";
        for (const target of [
          "policy.sh",
          "scripts/policy.ts",
          "scripts/shared.ts",
          "tools/gate/10-check.sh",
          "tools/gate/05-new.sh",
        ]) {
          const r = await p.hook(agent, preWrite(agent, p.dir, target));
          expect({ target, verdict: verdict(agent, r) }).toEqual({ target, verdict: refused });
          expect(reasonOf(r)).toContain("a gate plugin");
        }
        const other = await p.hook(agent, preWrite(agent, p.dir, "scripts/other.ts"));
        expect(verdict(agent, other)).toBe("allow");
      },
      SLOW_TEST,
    );
  }
});

describe("a config that reads but does not validate", () => {
  const vendorRule = { rules: [{ action: "deny", pattern: "vendor/", reason: "vendored" }] };
  for (const agent of ["claude", "gemini"] as const) {
    test(`${agent}: only its callbacks wrong: its gate section still decides`, async () => {
      const p = attackProject({
        "callbacks.config.json": JSON.stringify({
          callbacks: [{ name: "Bad Name", pattern: "*.ts", run: "true" }],
          gate: vendorRule,
        }),
      });
      const vendor = await p.hook(agent, preWrite(agent, p.dir, "vendor/x.js"));
      expect(verdict(agent, vendor)).toBe("deny");
      expect(reasonOf(vendor)).toContain("vendored");
      const plain = await p.hook(agent, preWrite(agent, p.dir, "src/a.ts"));
      expect(verdict(agent, plain)).toBe("allow");
    });

    test(`${agent}: a wrong key outside the callbacks: no write is allowed`, async () => {
      const p = attackProject({
        "callbacks.config.json": JSON.stringify({ callbacks: [], gates: vendorRule }),
      });
      const plain = await p.hook(agent, preWrite(agent, p.dir, "vendor/x.js"));
      expect(verdict(agent, plain)).toBe("deny");
      expect(reasonOf(plain)).toContain("no write is allowed");
    });
  }
});

describe("a config that misbehaves while loading cannot open the gate (issue 16, items 3 and 7)", () => {
  const configs: [string, string][] = [
    ["a top-level await that never settles", "await new Promise(() => {});"],
    ["process.exit(0)", "process.exit(0);"],
    ["killing its own process", 'process.kill(process.pid, "SIGKILL");'],
    ["an endless loop", "while (true) {}"],
  ];
  for (const [what, body] of configs) {
    for (const agent of ALL_AGENTS) {
      test(
        `${agent}, ${what}: .git/hooks/pre-commit and .env are denied, saying the config did not load`,
        async () => {
          const p = attackProject(tsConfig(body));
          for (const target of [".git/hooks/pre-commit", ".env"]) {
            const r = await p.hook(agent, preWrite(agent, p.dir, target), { env: FAST });
            expect({ target, verdict: verdict(agent, r) }).toEqual({ target, verdict: "deny" });
            expect(reasonOf(r)).toContain("config did not load");
          }
          // A write the built-ins allow is refused too: the config's rules may deny it.
          const plain = await p.hook(agent, preWrite(agent, p.dir, "src/a.ts"), { env: FAST });
          expect(plain.code).toBe(0);
          expect(verdict(agent, plain)).toBe("deny");
          expect(reasonOf(plain)).toContain("no write is allowed");
        },
        SLOW_TEST,
      );
    }
  }

  test("a file the config imports that does not parse: the refusal says where, for the person to fix", async () => {
    // unjs/citty, an agent session: the reason said only 'Expected "}" but found ";"'
    const p = attackProject({
      "callbacks.config.ts":
        'import { lint } from "./tools/checks.ts";\nexport default { callbacks: [lint] };\n',
      "tools/checks.ts": 'export const lint = { name: "lint", timeout: 5 ;\n',
    });
    const r = await p.hook("claude", preWrite("claude", p.dir, "src/a.ts"), { env: FAST });
    expect(verdict("claude", r)).toBe("deny");
    expect(reasonOf(r)).toContain("no write is allowed");
    expect(reasonOf(r)).toContain('Expected "}" but found ";" at ');
    expect(reasonOf(r)).toContain("tools/checks.ts:1:");
  });

  test("a config that loads normally still decides (its rule allows .env.local)", async () => {
    const p = attackProject({
      "callbacks.config.ts":
        'const allow = () => ".env.local";\nexport default { callbacks: [], gate: { rules: [{ action: "allow", pattern: allow() }] } };\n',
    });
    const r = await p.hook("claude", preWrite("claude", p.dir, ".env.local"));
    expect(verdict("claude", r)).toBe("allow");
    const git = await p.hook("claude", preWrite("claude", p.dir, ".git/config"));
    expect(verdict("claude", git)).toBe("deny");
  });

  test(
    "SIGTERM ends a hook stuck in the config, with a deny",
    async () => {
      const p = attackProject(tsConfig("while (true) {}"));
      const r = await p.hook("claude", preWrite("claude", p.dir, ".git/hooks/pre-commit"), {
        // the deadline is far off: only the signal can end it
        env: { CPILOT_CONFIG_LOAD_TIMEOUT_MS: "600000" },
        signal: { name: "SIGTERM", afterMs: 1500 },
        killAfterMs: 30_000,
      });
      expect(r.signal).toBeNull();
      expect(r.code).toBe(0);
      expect(verdict("claude", r)).toBe("deny");
      expect(reasonOf(r)).toContain("stopped (SIGTERM)");
    },
    SLOW_TEST,
  );

  test(
    "post-edit: an endless loop in the config ends in a note, not a hang",
    async () => {
      const p = attackProject(tsConfig("while (true) {}"));
      const r = await p.hook(
        "claude",
        {
          session_id: "attack",
          cwd: p.dir,
          hook_event_name: "PostToolUse",
          tool_name: "Write",
          tool_input: { file_path: p.path("a.ts"), content: "x" },
          tool_response: { success: true },
        },
        { env: FAST },
      );
      expect(r.code).toBe(0);
      expect(String((r.json as { reason?: string } | null)?.reason)).toContain(
        "did not finish loading within 2 s",
      );
    },
    SLOW_TEST,
  );
});

describe("input the hook cannot read denies the write (issue 16, item 5)", () => {
  for (const agent of ALL_AGENTS) {
    test(`${agent}: stdin that never closes`, async () => {
      const p = attackProject(JSON_CONFIG);
      const payload = JSON.stringify(preWrite(agent, p.dir, ".git/hooks/pre-commit"));
      const r = await p.hook(agent, payload.slice(0, payload.length - 5), {
        holdStdin: true,
        env: { CPILOT_HOOK_STDIN_TIMEOUT_MS: "500" },
      });
      expect(verdict(agent, r)).toBe("deny");
      expect(reasonOf(r)).toContain("could not read this hook call's input");
    });

    test(
      `${agent}: a payload over 64 MiB`,
      async () => {
        const p = attackProject(JSON_CONFIG);
        const huge = "A".repeat(65 * 1024 * 1024);
        const r = await p.hook(agent, preWrite(agent, p.dir, ".git/hooks/pre-commit", huge));
        expect(verdict(agent, r)).toBe("deny");
        expect(reasonOf(r)).toContain("over 64 MiB");
      },
      SLOW_TEST,
    );
  }

  test("a post event that cannot be read is not denied (nothing to deny)", async () => {
    const p = attackProject(JSON_CONFIG);
    const r = await p.hook("claude", '{"hook_event_name":"PostToolUse","tool_input":', {
      holdStdin: true,
      env: { CPILOT_HOOK_STDIN_TIMEOUT_MS: "500" },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("stdin did not close");
  });
});

describe("after the config loaded, the gate still ends in a verdict (issue 16, item 7)", () => {
  test(
    "a gate plugin function that loops for ever: the write is denied, not allowed",
    async () => {
      const p = attackProject({
        "callbacks.config.ts":
          "export default { callbacks: [], gate: { pluginTimeout: 1, plugins: [() => { while (true) {} }] } };\n",
      });
      const r = await p.hook("claude", preWrite("claude", p.dir, "src/a.ts"), {
        killAfterMs: 50_000,
      });
      expect(r.code).toBe(0);
      expect(verdict("claude", r)).toBe("deny");
      expect(reasonOf(r)).toContain("could not decide on this write");
    },
    SLOW_TEST,
  );
});

describe("MCP: the edit tools and callback_upsert cannot change the gate (issue 16, item 4)", () => {
  test(
    "write_file to the config is denied; callback_upsert proposes a callback and the gate holds",
    async () => {
      const { startMcp } = await import("../mcp/_client.ts");
      const p = attackProject(JSON_CONFIG);
      const mcp = await startMcp(p.dir);
      try {
        const off = JSON.stringify({ callbacks: [], gate: { defaults: { git: false } } });
        const write = await mcp.call("write_file", { path: "callbacks.config.json", content: off });
        expect(write.isError).toBe(true);
        expect(write.text).toContain("cpilot's config");
        const managed = await mcp.call("write_file", {
          path: "callbacks.managed.json",
          content: '{"callbacks":[]}',
        });
        expect(managed.isError).toBe(true);
        const added = await mcp.call("callback_upsert", {
          action: "create",
          name: "lint",
          pattern: "*.ts",
          run: "true",
          timeout: 5,
        });
        expect(added).toMatchObject({
          isError: false,
          text: expect.stringContaining("Proposed new callback"),
        });
        const hook = await mcp.call("write_file", { path: ".git/hooks/pre-commit", content: "x" });
        expect(hook.isError).toBe(true);
      } finally {
        await mcp.close();
      }
    },
    SLOW_TEST,
  );
});

test("SIGTERM while the hook still waits for its input: a deny at once (issue 16, items 5 and 7)", async () => {
  const p = attackProject(JSON_CONFIG);
  const r = await p.hook("claude", '{"hook_event_name":"PreToolUse","tool_input":{"file_path":', {
    holdStdin: true,
    // the stdin deadline is far off: only the signal ends the wait
    env: { CPILOT_HOOK_STDIN_TIMEOUT_MS: "600000" },
    signal: { name: "SIGTERM", afterMs: 1000 },
    killAfterMs: 30_000,
  });
  expect(r.signal).toBeNull();
  expect(verdict("claude", r)).toBe("deny");
  expect(r.stderr).toContain("stopped (SIGTERM)");
}, 60_000);

test("SIGTERM while a gate plugin decides: the plugin is stopped too", async () => {
  const { readFileSync, existsSync: exists } = await import("node:fs");
  const { processAlive } = await import("../helpers/tmp.ts");
  const runtime = tempDir("cpilot-rt-");
  // The plugin notes its pid and sleeps in a group of its own, past the call's end.
  const plugin =
    'test -f slow || { echo \'{"decision":"allow"}\'; exit 0; }; echo $$ > plugin.pid; exec sleep 300';
  const p = attackProject({
    "callbacks.config.json": JSON.stringify({
      callbacks: [],
      gate: { pluginTimeout: 600, plugins: [{ command: plugin }] },
    }),
  });
  const env = { CPILOT_RUNTIME_DIR: runtime };
  writeFileSync(p.path("slow"), "");
  // The agent SIGTERMs its hook on its timeout, and SIGKILLs it when that is not enough.
  const r = await p.hook("claude", preWrite("claude", p.dir, "b.ts"), {
    env,
    signal: { name: "SIGTERM", afterMs: 1500 },
    killAfterMs: 20_000,
  });
  expect(r.signal).toBeNull();
  expect(verdict("claude", r)).toBe("deny");
  expect(exists(p.path("plugin.pid"))).toBe(true);
  const pid = Number(readFileSync(p.path("plugin.pid"), "utf8"));
  const end = Date.now() + 10_000;
  while (processAlive(pid) && Date.now() < end) await new Promise((res) => setTimeout(res, 50));
  expect(processAlive(pid)).toBe(false);
}, 60_000);
