import { expect, test } from "bun:test";
import { CALLBACK_JSON_SCHEMA, KEYS_NOT_ASKED } from "../../src/add/schema.ts";
import { configSchema } from "../../src/config/schema.ts";

test("the model is asked for every callback key the config accepts, except those left out on purpose", () => {
  const configKeys = Object.keys(configSchema.shape.callbacks.element.shape).sort();
  const asked = Object.keys(CALLBACK_JSON_SCHEMA.properties);
  expect([...asked, ...KEYS_NOT_ASKED].sort()).toEqual(configKeys);
});
