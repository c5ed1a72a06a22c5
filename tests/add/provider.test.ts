import { expect, test } from "bun:test";
import { DEFAULTS, resolveProvider } from "../../src/add/provider.ts";
import { CpilotError } from "../../src/util/errors.ts";

test("the key that is set picks the provider, with a small model and the public API by default", () => {
  expect(resolveProvider({ ANTHROPIC_API_KEY: "a" })).toEqual({
    provider: "anthropic",
    baseUrl: DEFAULTS.anthropic.baseUrl,
    model: "claude-haiku-4-5",
    apiKey: "a",
    timeoutMs: 20_000,
  });
  expect(resolveProvider({ OPENAI_API_KEY: "o" })).toMatchObject({
    provider: "openai",
    baseUrl: "https://api.openai.com/v1",
    model: "gpt-4o-mini",
    apiKey: "o",
  });
});

test("CPILOT_MODEL_* win over the provider's own variables; flags win over both", () => {
  const env = {
    CPILOT_MODEL_PROVIDER: "openai",
    CPILOT_MODEL_BASE_URL: "http://127.0.0.1:9/v1/",
    CPILOT_MODEL: "small",
    CPILOT_MODEL_API_KEY: "own",
    OPENAI_API_KEY: "theirs",
    CPILOT_MODEL_TIMEOUT: "2.5",
  };
  expect(resolveProvider(env)).toEqual({
    provider: "openai",
    baseUrl: "http://127.0.0.1:9/v1",
    model: "small",
    apiKey: "own",
    timeoutMs: 2500,
  });
  expect(
    resolveProvider(env, {
      provider: "anthropic",
      model: "m",
      baseUrl: "http://127.0.0.1:8",
      timeoutS: "1",
    }),
  ).toMatchObject({
    provider: "anthropic",
    model: "m",
    baseUrl: "http://127.0.0.1:8",
    timeoutMs: 1000,
  });
});

test("no key, none, or --offline: no model, with the reason", () => {
  expect(resolveProvider({})).toHaveProperty("none");
  expect(resolveProvider({ ANTHROPIC_API_KEY: "a", CPILOT_MODEL_PROVIDER: "none" })).toEqual({
    none: "CPILOT_MODEL_PROVIDER is none",
  });
  expect(resolveProvider({ ANTHROPIC_API_KEY: "a" }, { offline: true })).toEqual({
    none: "--offline was given",
  });
  expect(resolveProvider({ CPILOT_MODEL_PROVIDER: "anthropic", OPENAI_API_KEY: "o" })).toEqual({
    none: "no API key for anthropic: set ANTHROPIC_API_KEY or CPILOT_MODEL_API_KEY",
  });
});

test("a keyless OpenAI-compatible server is allowed when its URL is given", () => {
  expect(
    resolveProvider({
      CPILOT_MODEL_PROVIDER: "openai",
      CPILOT_MODEL_BASE_URL: "http://127.0.0.1:11434/v1",
    }),
  ).toMatchObject({ provider: "openai", apiKey: "" });
});

test("bad values are usage errors that name the variable", () => {
  expect(() =>
    resolveProvider({ CPILOT_MODEL_PROVIDER: "gemini", ANTHROPIC_API_KEY: "a" }),
  ).toThrow(/CPILOT_MODEL_PROVIDER "gemini": unknown provider/);
  expect(() => resolveProvider({ ANTHROPIC_API_KEY: "a", CPILOT_MODEL_TIMEOUT: "soon" })).toThrow(
    CpilotError,
  );
  expect(() =>
    resolveProvider({ ANTHROPIC_API_KEY: "a", CPILOT_MODEL_BASE_URL: "not a url" }),
  ).toThrow(/not a URL/);
});
