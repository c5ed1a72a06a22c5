import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { evaluateWrite, type GateConfig } from "../../src/gate/index.ts";
import { makeProject } from "./_fixture.ts";

const { root, outside, cleanup } = makeProject();
afterAll(cleanup);

const decide = (path: string, config: GateConfig = {}) =>
  evaluateWrite({ tool: "Write", path, content: "x\n" }, { root, config, log: false, tty: false });

describe("hostile paths are denied with a reason", () => {
  test.each([
    ["..", "default:outside-root"],
    ["../outside/new.txt", "default:outside-root"],
    ["src/../../outside/victim.txt", "default:outside-root"],
    ["/etc/passwd", "default:outside-root"],
    ["ABS_OUTSIDE", "default:outside-root"],
    ["escape-file", "default:symlink-escape"],
    ["escape-dir/victim.txt", "default:symlink-escape"],
    ["escape-dir/new/file.txt", "default:symlink-escape"],
    ["escape-dir/../victim.txt", "default:symlink-escape"], // `..` applies after the link
    [".git/config", "default:git"],
    [".GIT/config", "default:git"],
    [".Git/HEAD", "default:git"],
    [".git/../.git/config", "default:git"],
    ["./.git/hooks/pre-commit", "default:git"],
    ["sub/.git/hooks/x", "default:git"],
    ["ABS_GIT", "default:git"],
    ["gitlink/config", "default:git"],
    [".git", "default:git"],
    ["\uff0egit/config", "default:git"], // fullwidth full stop
    ["\uff0e\uff47\uff49\uff54/config", "default:git"], // fullwidth .git
    [".g\u200Cit/config", "default:git"], // zero-width non-joiner (ignored by HFS+)
    [".gi\u0301t/config", "default:git"], // NFD: combining accent
    [".g\u00EDt/config", "default:git"], // NFC composed í
    [".G\u0130T/config", "default:git"], // Turkish dotted capital I
    [".git./config", "default:git"], // Windows drops trailing dots
    [".git::$INDEX_ALLOCATION/config", "default:git"], // NTFS stream
    ["GIT~1/config", "default:git"], // 8.3 short name
    [".env", "default:secrets"],
    [".env.local", "default:secrets"],
    [".ENV", "default:secrets"],
    [".Env.Production", "default:secrets"],
    ["config/.env.test", "default:secrets"],
    ["\uff0e\uff45\uff4e\uff56", "default:secrets"], // fullwidth ．ｅｎｖ
    [".e\u0301nv", "default:secrets"], // NFD variant
    [".en\u200Dv", "default:secrets"],
    ["certs/server.pem", "default:secrets"],
    ["id_ed25519", "default:secrets"],
    [".cpilot/gate-plugins/allow-all", "default:cpilot-dir"],
    [".CPILOT/gate.log.jsonl", "default:cpilot-dir"],
    [`src/${"a".repeat(5000)}.ts`, "default:long-name"],
    [`${"d/".repeat(2100)}x`, "default:long-name"],
    ["src/a\0.ts", "default:nul-byte"],
    ["", "default:empty-path"],
    [".", "default:empty-path"],
  ])("%j → %s", async (raw, source) => {
    const path = raw
      .replace("ABS_OUTSIDE", join(outside, "victim.txt"))
      .replace("ABS_GIT", join(root, ".git", "config"));
    const d = await decide(path);
    expect(d.decision).toBe("deny");
    expect(d.source).toBe(source);
    expect(d.reason).toStartWith("Cannot write");
    expect(d.reason.length).toBeGreaterThan(40);
    expect(d.reason.length).toBeLessThan(800);
    expect(d.reason).not.toContain("\0");
  });

  test("a denial says what to do instead and where a person can change it", async () => {
    const d = await decide(".env.local");
    expect(d.reason).toContain(".env.example");
    expect(d.hint).toContain("gate.defaults.secrets");
  });
});

describe("ordinary paths are allowed", () => {
  test.each([
    "src/index.ts",
    "README.md",
    "new/dir/file.ts",
    ".env.example",
    ".ENV.EXAMPLE",
    ".gitignore",
    ".github/workflows/ci.yml",
    "docs/.git-notes.md",
    "src/environment.ts",
    "café/naïve.md",
    "ABS_SRC",
  ])("%j", async (raw) => {
    const path = raw.replace("ABS_SRC", join(root, "src", "abs.ts"));
    const d = await decide(path);
    expect(d.decision).toBe("allow");
    expect(d.source).toBe("default:allow");
    expect(d.path).toStartWith(root);
  });

  test("the decision carries the absolute, normalized path and the relative one", async () => {
    const d = await decide("./src/../src/a.ts");
    expect(d.path).toBe(join(root, "src", "a.ts"));
    expect(d.relativePath).toBe("src/a.ts");
  });
});

describe("user rules", () => {
  test("deny rule with its reason, last matching rule wins", async () => {
    const config: GateConfig = {
      rules: [
        {
          action: "deny",
          pattern: "generated/**",
          reason: "generated code: edit the template in tpl/",
        },
        { action: "allow", pattern: "generated/keep.ts" },
      ],
    };
    const d = await decide("generated/out.ts", config);
    expect(d).toMatchObject({ decision: "deny", source: "rule:generated/**" });
    expect(d.reason).toContain("edit the template in tpl/");
    expect((await decide("generated/keep.ts", config)).decision).toBe("allow");
  });

  test("an allow rule overrides a default when configured", async () => {
    const config: GateConfig = { rules: [{ action: "allow", pattern: ".env.local" }] };
    const d = await decide(".env.local", config);
    expect(d).toMatchObject({ decision: "allow", source: "rule:.env.local" });
    expect((await decide(".env", config)).decision).toBe("deny");
  });

  test("an allow rule does not let look-alike spellings through", async () => {
    const config: GateConfig = { rules: [{ action: "allow", pattern: ".git/hooks/x" }] };
    expect((await decide(".git/hooks/x", config)).decision).toBe("allow");
    expect((await decide("\uff0egit/hooks/x", config)).decision).toBe("deny");
  });

  test("deny rules also catch case variants; allow rules match exactly", async () => {
    const config: GateConfig = {
      rules: [
        { action: "deny", pattern: "secrets/" },
        { action: "allow", pattern: ".env.local" },
      ],
    };
    expect((await decide("SECRETS/key.txt", config)).source).toBe("rule:secrets/");
    expect((await decide(".ENV.LOCAL", config)).source).toBe("default:secrets");
  });

  test("rules see the NFC form, so an NFD spelling does not dodge a deny rule", async () => {
    const config: GateConfig = { rules: [{ action: "deny", pattern: "caf\u00e9.txt" }] };
    expect((await decide("cafe\u0301.txt", config)).decision).toBe("deny");
  });

  test("rules see where a symlink really leads", async () => {
    const config: GateConfig = {
      defaults: { git: false },
      rules: [{ action: "deny", pattern: ".git/" }],
    };
    expect((await decide("gitlink/config", config)).source).toBe("rule:.git/");
  });

  test("each default can be turned off", async () => {
    const off: GateConfig = {
      defaults: {
        git: false,
        secrets: false,
        outsideRoot: false,
        symlinkEscape: false,
        cpilotDir: false,
        longNames: false,
      },
    };
    for (const path of [
      ".git/config",
      ".env",
      "../outside/x",
      "escape-file",
      ".cpilot/x",
      `${"a".repeat(300)}`,
    ]) {
      expect((await decide(path, off)).decision).toBe("allow");
    }
    // NUL can never be written, whatever the config
    expect((await decide("a\0b", off)).decision).toBe("deny");
  });

  test("cpilot's private folder (the turn records) is refused whatever the defaults say, through a link too", async () => {
    const off: GateConfig = { defaults: { outsideRoot: false, symlinkEscape: false } };
    const records = join(process.env.CPILOT_RUNTIME_DIR as string, "turn-records", "x", "s1");
    mkdirSync(records, { recursive: true });
    symlinkSync(records, join(root, "records-link"));
    for (const path of [join(records, "tree-snapshot.json"), "records-link/tree-snapshot.json"]) {
      const d = await decide(path, off);
      expect(d).toMatchObject({ decision: "deny", source: "default:cpilot-private" });
      expect(d.reason).toContain("cpilot's private folder");
    }
    expect((await decide("../outside/x", off)).decision).toBe("allow");
  });

  test("a bad config denies, reporting every problem", async () => {
    const d = await decide("src/a.ts", {
      rules: [{ action: "maybe", pattern: "x" }],
      nope: 1,
    } as never);
    expect(d).toMatchObject({ decision: "deny", source: "internal" });
    expect(d.reason).toContain("gate.rules.0.action");
    expect(d.reason).toContain("nope");
  });
});
