import { expect, test } from "bun:test";
import { statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { definitionKey, rootToolConfigs } from "../../src/cache/key.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

test("a check's definition key changes with its command, env, tool configs and the program it starts", () => {
  const root = tempDir("cpilot-key-");
  writeFiles(root, { "tool.sh": "#!/bin/sh\nexit 0\n", "tsconfig.json": "{}" });
  const def = { run: "./tool.sh --strict", cwd: root, env: {}, format: "auto" };
  const first = definitionKey(root, def);
  expect(definitionKey(root, def)).toBe(first);
  expect(definitionKey(root, { ...def, run: "./tool.sh" })).not.toBe(first);
  expect(definitionKey(root, { ...def, env: { A: "1" } })).not.toBe(first);
  writeFileSync(join(root, "tsconfig.json"), '{"strict":true}');
  const configChanged = definitionKey(root, def);
  expect(configChanged).not.toBe(first);
  // An upgrade of the tool: another program under the same name.
  writeFileSync(join(root, "tool.sh"), "#!/bin/sh\n# version 2\nexit 0\n");
  expect(definitionKey(root, def)).not.toBe(configChanged);
});

test("the key is the same from another folder holding the same project (a teammate, CI)", () => {
  const a = tempDir("cpilot-key-a-");
  const b = tempDir("cpilot-key-b-");
  for (const root of [a, b]) writeFiles(root, { "tsconfig.json": "{}" });
  const def = (root: string) => ({ run: ["tsc", "-p", "."], cwd: root, env: {}, format: "tsc" });
  expect(definitionKey(a, def(a))).toBe(definitionKey(b, def(b)));
});

test("two installs of the same program, at other times, give one key; another program or lockfile does not", () => {
  const a = tempDir("cpilot-key-a-");
  const b = tempDir("cpilot-key-b-");
  const tool = "#!/bin/sh\nexit 0\n";
  for (const root of [a, b]) writeFiles(root, { "tool.sh": tool, "package-lock.json": "{}" });
  // b's copy was installed later
  const later = new Date(Date.now() + 3_600_000);
  utimesSync(join(b, "tool.sh"), later, later);
  const def = (root: string) => ({ run: "./tool.sh", cwd: root, env: {}, format: "auto" });
  const key = definitionKey(a, def(a));
  expect(definitionKey(b, def(b))).toBe(key);
  // the content, not the stamp, decides: the same size and time with other bytes is another tool
  const st = statSync(join(b, "tool.sh"));
  writeFileSync(join(b, "tool.sh"), tool.replace("exit 0", "exit 1"));
  utimesSync(join(b, "tool.sh"), st.atime, st.mtime);
  expect(definitionKey(b, def(b))).not.toBe(key);
  writeFileSync(join(b, "tool.sh"), tool);
  expect(definitionKey(b, def(b))).toBe(key);
  writeFileSync(join(b, "package-lock.json"), '{"lockfileVersion":3}');
  expect(definitionKey(b, def(b))).not.toBe(key);
});

test("a definition key from the batch's tool configs, read once, is the key each callback would make alone", () => {
  const root = tempDir("cpilot-key-");
  writeFiles(root, { "tsconfig.json": "{}", "package.json": "{}" });
  const defs = [
    { run: ["tsc", "-p", "."], cwd: root, env: {}, format: "tsc" },
    { run: "biome check", cwd: root, env: { A: "1" }, format: "auto" },
  ];
  const configs = rootToolConfigs(root);
  for (const def of defs) expect(definitionKey(root, def, configs)).toBe(definitionKey(root, def));
  // a config changed after they were read: the next batch reads them again and keys differ
  writeFileSync(join(root, "tsconfig.json"), '{"strict":true}');
  const def = defs[0] as (typeof defs)[0];
  expect(definitionKey(root, def, rootToolConfigs(root))).not.toBe(
    definitionKey(root, def, configs),
  );
});
