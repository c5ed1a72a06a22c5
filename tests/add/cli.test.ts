import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadProjectConfig } from "../../src/config/load.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import { runAdd } from "./_cli.ts";
import { anthropicCalls, type FakeModel, openaiCalls, startFakeModel } from "./_fake-model.ts";

const WORDS = "run cargo check after I edit rust files and show me the errors";
const FROM_MODEL = {
  name: "rust-check",
  description: "cargo check on Rust edits",
  pattern: ["*.rs", "Cargo.toml"],
  run: "cargo check --quiet --message-format short",
  blocking: true,
  timeout: 300,
  overlap: "replace",
};

/** A temp project with a hand-written TS config holding one callback. */
function project(): string {
  const root = tempDir("cpilot-add-cli-");
  writeFiles(root, {
    "Cargo.toml": "[package]\n",
    "callbacks.config.ts":
      'export default { callbacks: [{ name: "cargo-check", pattern: "*.rs", run: "true", timeout: 5 }] };\n',
  });
  return root;
}

const managed = (root: string) => join(root, "callbacks.managed.json");
const saved = (root: string) =>
  (JSON.parse(readFileSync(managed(root), "utf8")) as { callbacks: Record<string, unknown>[] })
    .callbacks;

let fake: FakeModel | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function modelEnv(provider: "anthropic" | "openai", url: string): Record<string, string> {
  return {
    CPILOT_MODEL_PROVIDER: provider,
    CPILOT_MODEL_BASE_URL: provider === "anthropic" ? url : `${url}/v1`,
    CPILOT_MODEL_API_KEY: "test-key",
    CPILOT_MODEL: "fake-small",
  };
}

describe.each(["anthropic", "openai"] as const)("with a %s model", (provider) => {
  test("--yes saves the model's callback to callbacks.managed.json, and the config loads it", async () => {
    const root = project();
    fake = await startFakeModel([
      provider === "anthropic" ? anthropicCalls(FROM_MODEL) : openaiCalls(FROM_MODEL),
    ]);
    const r = await runAdd([WORDS, "--yes"], { cwd: root, env: modelEnv(provider, fake.url) });
    expect(r.stderr).toContain(`callback built by fake-small (${provider})`);
    expect(r.code).toBe(0);
    expect(fake.requests).toHaveLength(1);
    expect(saved(root)).toEqual([FROM_MODEL]);
    const config = await loadProjectConfig(root);
    expect(config.callbacks.map((c) => c.name)).toEqual(["cargo-check", "rust-check"]);
    expect(r.stdout).toBe("");
  });

  test("a taken name moves aside; --json prints exactly what is saved", async () => {
    const root = project();
    const clash = { ...FROM_MODEL, name: "cargo-check" };
    fake = await startFakeModel([
      provider === "anthropic" ? anthropicCalls(clash) : openaiCalls(clash),
    ]);
    const r = await runAdd([WORDS, "--yes", "--json"], {
      cwd: root,
      env: modelEnv(provider, fake.url),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('"cargo-check" is taken, so it is named "cargo-check-2"');
    expect(JSON.parse(r.stdout)).toEqual({ ...FROM_MODEL, name: "cargo-check-2" });
    expect(saved(root)).toEqual([JSON.parse(r.stdout)]);
  });
});

test("a model that never answers times out (--model-timeout) and the rules' result is saved, labelled", async () => {
  const root = project();
  fake = await startFakeModel([{ hang: true }]);
  // the model never answers: without the timeout the command would outlast the test
  const r = await runAdd([WORDS, "--yes", "--model-timeout", "0.3"], {
    cwd: root,
    env: modelEnv("anthropic", fake.url),
  });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("callback built WITHOUT a model");
  expect(r.stderr).toContain("timed out");
  expect(saved(root)).toMatchObject([{ name: "cargo-check-2", pattern: ["*.rs"] }]);
});

describe("offline (no key in the environment)", () => {
  test("the rules build it, it is shown as built without a model, and --yes saves it", async () => {
    const root = project();
    const r = await runAdd(["format python files with black after each file", "--yes"], {
      cwd: root,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("callback built WITHOUT a model");
    expect(r.stderr).toContain("no API key");
    expect(saved(root)).toMatchObject([
      { name: "black", run: ["black", "--quiet", "{file}"], per: "file" },
    ]);
  });

  test("gibberish fails with what was not understood, exit 2, nothing saved", async () => {
    const root = project();
    const r = await runAdd(["flibber the wozzle", "--yes"], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no command recognised in "flibber the wozzle"');
    expect(r.stderr).toContain("hint: say which command to run");
    expect(existsSync(managed(root))).toBe(false);
  });
});

describe("nothing is saved without a yes", () => {
  test("no terminal and no --yes: shown, not saved, exit 1, and how to save is printed", async () => {
    const root = project();
    const r = await runAdd([WORDS], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"run": "cargo check --quiet --message-format short"');
    expect(r.stderr).toContain("not saved: no terminal to ask on");
    expect(r.stderr).toContain(`cpilot add '${WORDS}' --yes`);
    expect(existsSync(managed(root))).toBe(false);
  });

  test("--dry-run only shows, even with --yes", async () => {
    const root = project();
    const r = await runAdd([WORDS, "--dry-run", "--yes", "--json"], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("dry run: nothing saved");
    expect(JSON.parse(r.stdout)).toMatchObject({ name: "cargo-check-2" });
    expect(existsSync(managed(root))).toBe(false);
  });

  test("no config file: refused before any model is asked", async () => {
    const root = tempDir("cpilot-add-noconfig-");
    fake = await startFakeModel([]);
    const r = await runAdd([WORDS, "--yes"], { cwd: root, env: modelEnv("openai", fake.url) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("cpilot init");
    expect(fake.requests).toHaveLength(0);
    expect(existsSync(managed(root))).toBe(false);
  });
});

describe("names", () => {
  test("--name that the config defines is an error; one in the managed file needs --replace", async () => {
    const root = project();
    const clash = await runAdd([WORDS, "--yes", "--name", "cargo-check"], { cwd: root });
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain(
      'Cannot add callback "cargo-check": the config file already defines it',
    );
    expect((await runAdd([WORDS, "--yes", "--name", "rc"], { cwd: root })).code).toBe(0);
    const again = await runAdd(["run clippy on rust files", "--yes", "--name", "rc"], {
      cwd: root,
    });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("--replace");
    const replaced = await runAdd(
      ["run clippy on rust files", "--yes", "--name", "rc", "--replace"],
      {
        cwd: root,
      },
    );
    expect(replaced.code).toBe(0);
    expect(saved(root)).toMatchObject([
      { name: "rc", run: "cargo clippy --quiet --message-format short -- -D warnings" },
    ]);
  });
});

const hasScript = Bun.which("script") !== null && process.platform === "linux";

describe.skipIf(!hasScript)(
  "the y/N question on /dev/tty (under script(1), a pseudo-terminal)",
  () => {
    const underTty = (root: string, answer: string) => {
      const bun = join(import.meta.dir, "..", "..", "node_modules", ".bin", "bun");
      const main = join(import.meta.dir, "..", "..", "main.ts");
      const cmd = `${bun} ${main} add 'run cargo check on rust files'`;
      return Bun.spawn(
        ["sh", "-c", `(sleep 1; printf '${answer}') | script -qec "$0" /dev/null`, cmd],
        {
          cwd: root,
          env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: root, NO_COLOR: "1", TERM: "dumb" },
          stdout: "pipe",
          stderr: "pipe",
        },
      );
    };

    test("y saves; n does not", async () => {
      const yesRoot = project();
      const yes = underTty(yesRoot, "y\\n");
      const yesOut = await new Response(yes.stdout).text();
      await yes.exited;
      expect(yesOut).toContain('Save "cargo-check-2" to callbacks.managed.json? [y/N]');
      expect(saved(yesRoot)).toMatchObject([{ name: "cargo-check-2" }]);
      const noRoot = project();
      const no = underTty(noRoot, "n\\n");
      const noOut = await new Response(no.stdout).text();
      await no.exited;
      expect(noOut).toContain("not saved");
      expect(existsSync(managed(noRoot))).toBe(false);
    }, 20_000);
  },
);
