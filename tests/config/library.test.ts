import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as cpilot from "../../src/index.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

test("the library entry runs a batch, gates a write and applies a context update", async () => {
  const root = tempDir();
  writeFiles(root, { "a.ts": "let x=1\n", ".context/TASKS.md": "# Tasks\n\n- [ ] ship it\n" });
  const config = cpilot.defineConfig({
    callbacks: [{ name: "fmt", pattern: "*.ts", run: "sed -i 's/x=1/x = 1/' \"$@\"", timeout: 5 }],
  });
  const engine = cpilot.createEngine({ root, config });
  const outcome = await engine.run({
    root,
    files: [{ path: "a.ts", kind: "modified" }],
    origin: { surface: "api" },
  });
  expect(outcome.ok).toBe(true);
  expect(outcome.resyncs[0]?.newText).toBe("let x = 1\n");

  const denied = await cpilot.evaluateWrite(
    { tool: "write", path: ".git/config", content: "x" },
    { root, config: {}, log: false },
  );
  expect(denied.decision).toBe("deny");

  const text = '<context-update file="TASKS.md" action="complete" id="ship it"></context-update>';
  expect(cpilot.parseUpdates(text).updates).toHaveLength(1);
  const report = cpilot.applyUpdates(text, { contextDir: join(root, ".context") });
  expect(report.results[0]?.ok).toBe(true);
  expect(readFileSync(join(root, ".context", "TASKS.md"), "utf8")).toContain("- [x] ship it");
});
