import { afterAll, describe, expect, test } from "bun:test";
import { evaluateWrite, type GateConfig, type TtyPrompt } from "../../src/gate/index.ts";
import { makeProject } from "./_fixture.ts";

const { root, cleanup } = makeProject();
afterAll(cleanup);

const rules: GateConfig["rules"] = [
  { action: "allow", pattern: "package.json" },
  { action: "ask", pattern: "package.json", reason: "dependency changes need a person" },
  { action: "ask", pattern: "infra/**" },
  { action: "deny", pattern: "infra/prod/**" },
];
const write = (path: string) => ({ tool: "Write", path, content: "{}" });

describe("ask with a terminal", () => {
  test("the injected prompt gets the reason; yes allows, no denies", async () => {
    const questions: string[] = [];
    const yes: TtyPrompt = async (q) => {
      questions.push(q);
      return true;
    };
    const no: TtyPrompt = async () => false;
    const a = await evaluateWrite(write("package.json"), {
      root,
      config: { rules },
      mode: "prompt",
      tty: yes,
      log: false,
    });
    expect(a).toMatchObject({ decision: "allow", asked: "tty", source: "rule:package.json" });
    expect(questions[0]).toContain("dependency changes need a person");
    const b = await evaluateWrite(write("package.json"), {
      root,
      config: { rules },
      mode: "prompt",
      tty: no,
      log: false,
    });
    expect(b).toMatchObject({ decision: "deny", asked: "tty" });
    expect(b.reason).toContain("declined");
  });

  test("a deny rule is never asked about", async () => {
    let asked = false;
    const tty: TtyPrompt = async () => {
      asked = true;
      return true;
    };
    const d = await evaluateWrite(write("infra/prod/db.tf"), {
      root,
      config: { rules },
      mode: "prompt",
      tty,
      log: false,
    });
    expect(d.decision).toBe("deny");
    expect(asked).toBe(false);
  });
});

describe("ask headless", () => {
  test.each([
    ["deny", "package.json", "deny", "headless:deny"],
    ["allow", "package.json", "allow", "headless:allow"],
    // rules-only: the ask rule is skipped, the allow rule before it decides
    ["rules-only", "package.json", "allow", "headless:rules-only"],
    ["rules-only", "infra/main.tf", "allow", "headless:rules-only"],
  ] as const)("headless %s: %s → %s", async (headless, path, expected, asked) => {
    const d = await evaluateWrite(write(path), {
      root,
      config: { rules, headless },
      tty: false,
      log: false,
      mode: "prompt",
    });
    expect(d).toMatchObject({ decision: expected, asked });
  });

  test("the default headless mode is deny, with a reason the model can act on", async () => {
    const d = await evaluateWrite(write("infra/main.tf"), {
      root,
      config: { rules },
      tty: false,
      log: false,
    });
    expect(d).toMatchObject({ decision: "deny", asked: "headless:deny", source: "rule:infra/**" });
    expect(d.reason).toContain("no one can be asked here");
    expect(d.reason).toContain("ask the user");
  });

  test("an explicit mode from the caller wins over the config and skips the terminal", async () => {
    let asked = false;
    const tty: TtyPrompt = async () => {
      asked = true;
      return true;
    };
    const d = await evaluateWrite(write("infra/main.tf"), {
      root,
      config: { rules, headless: "allow" },
      mode: "deny",
      tty,
      log: false,
    });
    expect(d).toMatchObject({ decision: "deny", asked: "headless:deny" });
    expect(asked).toBe(false);
  });

  test("in CI the terminal is not used", async () => {
    const saved = process.env.CI;
    process.env.CI = "true";
    let asked = false;
    try {
      const tty: TtyPrompt = async () => {
        asked = true;
        return true;
      };
      const d = await evaluateWrite(write("infra/main.tf"), {
        root,
        config: { rules },
        tty,
        log: false,
      });
      expect(d.decision).toBe("deny");
      expect(asked).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.CI;
      else process.env.CI = saved;
    }
  });

  test("with no controlling terminal, the real prompt answers null without touching stdin", async () => {
    const proc = Bun.spawn(
      [
        process.execPath,
        "-e",
        `import { promptOnTty } from "${import.meta.dir}/../../src/gate/ask.ts"; console.log(JSON.stringify(await promptOnTty("q?", 1000)));`,
      ],
      { stdin: "pipe", stdout: "pipe", stderr: "pipe", detached: true },
    );
    // stdin stays open and silent: a prompt reading stdin would hang here
    const out = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    expect(out.trim()).toBe("null");
    proc.stdin.end();
  });
});

const hasScript = Bun.which("script") !== null && process.platform === "linux";

describe.skipIf(!hasScript)("the real /dev/tty prompt (under script(1), a pseudo-terminal)", () => {
  const promptIn = (answer: string, timeoutMs: number) => {
    const code = `import { promptOnTty } from ${JSON.stringify(`${import.meta.dir}/../../src/gate/ask.ts`)}; console.log("ANSWER=" + (await promptOnTty("allow x?", ${timeoutMs})));`;
    const cmd = `${JSON.stringify(process.execPath)} -e '${code}'`;
    return Bun.spawn(
      ["sh", "-c", `(sleep 0.5; printf '${answer}') | script -qec "$0" /dev/null`, cmd],
      {
        stdout: "pipe",
        stderr: "pipe",
      },
    );
  };

  test("y on the terminal allows; silence times out as no", async () => {
    const yes = promptIn("y\\n", 5000);
    const yesOut = await new Response(yes.stdout).text();
    expect(yesOut).toContain("allow x? [y/N]");
    expect(yesOut).toContain("ANSWER=true");
    const silent = promptIn("", 300);
    const silentOut = await new Response(silent.stdout).text();
    expect(silentOut).toContain("ANSWER=false");
  }, 15_000);
});
