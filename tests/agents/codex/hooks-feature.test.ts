/** Codex's `[features] hooks` switch, read with a TOML parser: project's file before the user's. */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hooksFeature, hooksTurnedOffIn } from "../../../src/agents/codex/hooks-feature.ts";
import { tempDir } from "../../helpers/tmp.ts";

test("hooks under [features], dotted, inline, or not at all", () => {
  expect(hooksFeature("[features]\nhooks = false\n")).toBe(false);
  expect(hooksFeature("features.hooks = true\n")).toBe(true);
  expect(hooksFeature("features = { hooks = false }\n")).toBe(false);
  // a `hooks` key in another table is not the switch
  expect(hooksFeature("[features]\nplugins = false\n[other]\nhooks = false\n")).toBeNull();
  expect(hooksFeature('# hooks = false\nmodel = "x"\n')).toBeNull();
  expect(hooksFeature("[features\nhooks = false")).toBeNull(); // not TOML: Codex itself refuses it
});

test("the project's config.toml outranks the user's", () => {
  const root = tempDir("cpilot-codex-feature-");
  const home = tempDir("cpilot-codex-home-");
  mkdirSync(join(root, ".codex"));
  writeFileSync(join(home, "config.toml"), "[features]\nhooks = false\n");
  expect(hooksTurnedOffIn(root, home)).toBe(join(home, "config.toml"));
  writeFileSync(join(root, ".codex", "config.toml"), "[features]\nhooks = true\n");
  expect(hooksTurnedOffIn(root, home)).toBeNull();
  writeFileSync(join(root, ".codex", "config.toml"), "[features]\nhooks = false\n");
  writeFileSync(join(home, "config.toml"), "[features]\nhooks = true\n");
  expect(hooksTurnedOffIn(root, home)).toBe(join(root, ".codex", "config.toml"));
});
