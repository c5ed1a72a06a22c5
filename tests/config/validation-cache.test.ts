import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadProjectConfig } from "../../src/config/load.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const cfg = (timeout: unknown) =>
  `export default { callbacks: [{ name: "t", pattern: "*.ts", run: () => 0, timeout: ${JSON.stringify(timeout)} }] };\n`;

test("a config that validated once is remembered, and any change is validated again", async () => {
  const root = tempDir();
  writeFiles(root, { "callbacks.config.ts": cfg(5) });
  await loadProjectConfig(root);
  const cache = readFileSync(join(root, ".cpilot", "cache", "valid-configs"), "utf8");
  expect(cache.trim().split("\n")).toHaveLength(1);
  // same value again: still loads, cache unchanged
  const again = await loadProjectConfig(root);
  expect(again.callbacks[0]?.timeoutMs).toBe(5000);
  expect(readFileSync(join(root, ".cpilot", "cache", "valid-configs"), "utf8")).toBe(cache);
  // a changed, invalid value is caught even though an earlier version was cached
  writeFileSync(join(root, "callbacks.config.ts"), cfg("soon"));
  await expect(loadProjectConfig(root)).rejects.toThrow(/callbacks\[0\]\.timeout: got "soon"/);
  // and a bad managed file next to a cached config is caught too
  writeFileSync(join(root, "callbacks.config.ts"), cfg(5));
  writeFiles(root, {
    "callbacks.managed.json": JSON.stringify({
      callbacks: [{ name: "t", pattern: "*.ts", run: "x", timeout: 1 }],
    }),
  });
  await expect(loadProjectConfig(root)).rejects.toThrow(/duplicate name "t"/);
});

test("a managed callback's hook may start a callback of the hand-written config", async () => {
  const root = tempDir();
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "hints", pattern: "*.ts", run: "true", timeout: 5 }],
    }),
    "callbacks.managed.json": JSON.stringify({
      callbacks: [
        {
          name: "tsc",
          pattern: "*.ts",
          run: "tsc",
          timeout: 5,
          onExit: { when: "failure", action: "run", callback: "hints" },
        },
      ],
    }),
  });
  const config = await loadProjectConfig(root);
  expect(config.callbacks.map((c) => c.name)).toEqual(["hints", "tsc"]);
  writeFiles(root, {
    "callbacks.managed.json": JSON.stringify({
      callbacks: [
        {
          name: "tsc",
          pattern: "*.ts",
          run: "tsc",
          timeout: 5,
          onExit: { action: "run", callback: "nope" },
        },
      ],
    }),
  });
  await expect(loadProjectConfig(root)).rejects.toThrow(
    /callbacks\.managed\.json: callbacks\[0\]\.onExit/,
  );
});
