import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";

test("a misspelled command, flag or config key gets a did-you-mean", () => {
  const dir = tempDir("cpilot-dym-", { git: true });
  const command = cpilot(["chek"], { cwd: dir });
  expect(command.code).toBe(2);
  expect(command.stderr).toContain("did you mean `cpilot check`?");
  const flag = cpilot(["check", "--stagd"], { cwd: dir });
  expect(flag.code).toBe(2);
  expect(flag.stderr).toContain('did you mean "--staged"');
  const agent = cpilot(["install", "cluade"], { cwd: dir });
  expect(agent.code).toBe(2);
  expect(agent.stderr).toContain('did you mean "claude"?');
  writeFileSync(
    join(dir, "callbacks.config.json"),
    JSON.stringify({
      concurency: 2,
      agent: { maxStopBlock: 1 },
      callbacks: [{ name: "a", pattern: "*", run: "true", timeout: 5, sucessMessage: "ok" }],
    }),
  );
  const key = cpilot(["list"], { cwd: dir });
  expect(key.code).toBe(2);
  expect(key.stderr).toContain('unknown key "concurency" (did you mean "concurrency"?)');
  expect(key.stderr).toContain('unknown key "maxStopBlock" (did you mean "maxStopBlocks"?)');
  expect(key.stderr).toContain('unknown key "sucessMessage" (did you mean "successMessage"?)');
}, 60_000);
