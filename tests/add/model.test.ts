import { afterEach, describe, expect, test } from "bun:test";
import { buildCallback } from "../../src/add/build.ts";
import { gatherContext } from "../../src/add/context.ts";
import { type ProviderConfig, resolveProvider } from "../../src/add/provider.ts";
import { CpilotError } from "../../src/util/errors.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import {
  type Answer,
  anthropicCalls,
  type FakeModel,
  openaiCalls,
  startFakeModel,
  userText,
} from "./_fake-model.ts";

const root = tempDir("cpilot-add-model-");
writeFiles(root, {
  "Cargo.toml": "[package]\n",
  "src/main.rs": "fn main() {}\n",
  "package.json": JSON.stringify({ scripts: { lint: "eslint ." } }),
});

const WORDS = "run cargo check after I edit rust files and show me the errors";
const GOOD = {
  name: "cargo-check",
  description: "cargo check on Rust edits",
  pattern: ["*.rs", "Cargo.toml"],
  run: "cargo check --quiet --message-format short",
  blocking: true,
  timeout: 300,
  overlap: "replace" as const,
};

let fake: FakeModel | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

type Provider = "anthropic" | "openai";
const calls = (provider: Provider, input: unknown): Answer =>
  provider === "anthropic" ? anthropicCalls(input) : openaiCalls(input);

async function build(provider: Provider, script: Answer[], words = WORDS, timeoutMs = 5000) {
  fake = await startFakeModel(script);
  // An explicit env: never process.env, so no real key or host can be used.
  const config = resolveProvider({
    CPILOT_MODEL_PROVIDER: provider,
    CPILOT_MODEL_BASE_URL: provider === "anthropic" ? fake.url : `${fake.url}/v1`,
    CPILOT_MODEL_API_KEY: "test-key",
    CPILOT_MODEL: "fake-small",
  }) as ProviderConfig;
  const progress: string[] = [];
  const result = buildCallback({
    words,
    root,
    context: gatherContext(root, ["typecheck"]),
    provider: { ...config, timeoutMs },
    progress: (l) => progress.push(l),
  });
  return { result, progress, fake };
}

describe.each(["anthropic", "openai"] as const)("%s", (provider) => {
  test("a good reply is the callback, from one forced tool call that carries the project's context", async () => {
    const { result, fake } = await build(provider, [calls(provider, GOOD)]);
    const built = await result;
    expect(built.via).toEqual({ kind: "model", provider, model: "fake-small", attempts: 1 });
    expect(built.callback).toEqual(GOOD);
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req.method).toBe("POST");
    if (provider === "anthropic") {
      expect(req.path).toBe("/v1/messages");
      expect(req.headers["x-api-key"]).toBe("test-key");
      expect(req.headers["anthropic-version"]).toBe("2023-06-01");
      expect(req.body.tool_choice).toEqual({ type: "tool", name: "save_callback" });
      const tools = req.body.tools as { input_schema: { required: string[] } }[];
      expect(tools[0]!.input_schema.required).toContain("pattern");
    } else {
      expect(req.path).toBe("/v1/chat/completions");
      expect(req.headers.authorization).toBe("Bearer test-key");
      expect(req.body.tool_choice).toEqual({
        type: "function",
        function: { name: "save_callback" },
      });
    }
    expect(req.body.model).toBe("fake-small");
    const text = userText(req);
    expect(text).toContain(WORDS);
    expect(text).toContain("Cargo.toml");
    expect(text).toContain("src/");
    expect(text).toContain("lint"); // package.json scripts
    expect(text).toContain("typecheck"); // names taken
  });

  test("malformed JSON: the body is not JSON, so the rules build it, labelled", async () => {
    const { result, progress } = await build(provider, [{ raw: '{"content": [ oops' }]);
    const built = await result;
    expect(built.via.kind).toBe("rules");
    if (built.via.kind === "rules") expect(built.via.why).toContain("not JSON");
    expect(built.callback).toMatchObject({ name: "cargo-check", pattern: ["*.rs"] });
    expect(progress.join("\n")).toContain("no usable answer");
  });

  test("an HTTP 500 falls back to the rules without a retry", async () => {
    const { result, fake } = await build(provider, [
      { status: 500, json: { error: { message: "overloaded" } } },
    ]);
    const built = await result;
    expect(fake.requests).toHaveLength(1);
    expect(built.via.kind).toBe("rules");
    if (built.via.kind === "rules") expect(built.via.why).toMatch(/HTTP 500.*overloaded/);
  });

  test("a server that never answers times out and falls back", async () => {
    // the server never answers: without the timeout the build would outlast the test
    const { result } = await build(provider, [{ hang: true }], WORDS, 300);
    const built = await result;
    expect(built.via.kind).toBe("rules");
    if (built.via.kind === "rules") expect(built.via.why).toContain("timed out");
  });

  test("an invalid glob is rejected, the model is told why, and its fixed reply is used", async () => {
    const bad = { ...GOOD, pattern: ["src/[a-"] };
    const { result, fake } = await build(provider, [calls(provider, bad), calls(provider, GOOD)]);
    const built = await result;
    expect(fake.requests).toHaveLength(2);
    const retry = userText(fake.requests[1]!);
    expect(retry).toContain("rejected");
    expect(retry).toContain("src/[a-");
    expect(retry).toMatch(/pattern: .*character class/);
    expect(built.via).toMatchObject({ kind: "model", attempts: 2 });
    expect(built.callback.pattern).toEqual(GOOD.pattern);
  });

  test("an invalid regex twice: retried once with the errors, then the rules", async () => {
    const bad = { ...GOOD, onOutput: [{ match: "error([", action: "notify" }] };
    const { result, fake } = await build(provider, [calls(provider, bad), calls(provider, bad)]);
    const built = await result;
    expect(fake.requests).toHaveLength(2);
    expect(userText(fake.requests[1]!)).toMatch(/onOutput(\[0\])?\.match/);
    expect(built.via.kind).toBe("rules");
    if (built.via.kind === "rules") expect(built.via.why).toContain("unusable twice");
    expect(built.callback).not.toHaveProperty("onOutput");
  });

  test("a valid hook regex from the model is kept", async () => {
    const good = { ...GOOD, onOutput: [{ match: "^error\\[E\\d+\\]", action: "notify" }] };
    const { result } = await build(provider, [calls(provider, good)]);
    expect((await result).callback).toMatchObject({ onOutput: good.onOutput });
  });

  test("failing validation twice with words the rules cannot read is a clear failure", async () => {
    const bad = { ...GOOD, timeout: -1 };
    const { result } = await build(
      provider,
      [calls(provider, bad), calls(provider, bad)],
      "flibber the wozzle",
    );
    const err = (await result.catch((e: unknown) => e)) as CpilotError;
    expect(err).toBeInstanceOf(CpilotError);
    expect(err.message).toContain('no command recognised in "flibber the wozzle"');
    expect(err.hint).toContain("unusable twice");
    expect(err.hint).toContain("timeout");
  });
});

test("openai: arguments that are not JSON are retried with the parse error", async () => {
  const { result, fake } = await build("openai", [openaiCalls("{name: cargo"), openaiCalls(GOOD)]);
  const built = await result;
  expect(fake.requests).toHaveLength(2);
  expect(userText(fake.requests[1]!)).toContain("not valid JSON");
  expect(built.via).toMatchObject({ kind: "model", attempts: 2 });
});

test("openai: nulls for unused optional fields are dropped, not rejected", async () => {
  const { result } = await build("openai", [
    openaiCalls({ ...GOOD, per: null, successMessage: null }),
  ]);
  expect((await result).callback).toEqual(GOOD);
});

test("anthropic: a reply without the tool call is retried", async () => {
  const text: Answer = { json: { content: [{ type: "text", text: "Sure! Here it is." }] } };
  const { result, fake } = await build("anthropic", [text, anthropicCalls(GOOD)]);
  expect((await result).via).toMatchObject({ kind: "model", attempts: 2 });
  expect(userText(fake.requests[1]!)).toContain("did not call save_callback");
});

test("a connection refused falls back with the reason", async () => {
  fake = await startFakeModel([]);
  const url = fake.url;
  await fake.close();
  fake = undefined;
  const config = resolveProvider({
    CPILOT_MODEL_PROVIDER: "anthropic",
    CPILOT_MODEL_BASE_URL: url,
    CPILOT_MODEL_API_KEY: "k",
  }) as ProviderConfig;
  const built = await buildCallback({
    words: WORDS,
    root,
    context: gatherContext(root, []),
    provider: config,
  });
  expect(built.via.kind).toBe("rules");
  if (built.via.kind === "rules") expect(built.via.why).toContain("cannot reach");
});

test("Ctrl-C while waiting for the model stops: no fallback, exit 130", async () => {
  fake = await startFakeModel([{ hang: true }]);
  const config = resolveProvider({
    CPILOT_MODEL_PROVIDER: "openai",
    CPILOT_MODEL_BASE_URL: `${fake.url}/v1`,
    CPILOT_MODEL_API_KEY: "k",
  }) as ProviderConfig;
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error("interrupted")), 100);
  const err = await buildCallback({
    words: WORDS,
    root,
    context: gatherContext(root, []),
    provider: config,
    signal: controller.signal,
  }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(CpilotError);
  expect((err as CpilotError).exitCode).toBe(130);
});
