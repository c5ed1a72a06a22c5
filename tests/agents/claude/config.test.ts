/** The `agent` config section: validated with every problem reported, defaults applied. */
import { expect, test } from "bun:test";
import { agentSettings } from "../../../src/config/agent-settings.ts";
import { validateConfig } from "../../../src/config/validate.ts";

test("every problem in the agent section is reported at once, with its key path", () => {
  const result = validateConfig({
    callbacks: [],
    agent: { maxStopBlocks: -1, tailLines: 0, announceCallbacks: "yes", extra: 1 },
  });
  expect(result.ok).toBe(false);
  const paths = result.ok ? [] : result.problems.map((p) => p.path);
  expect(paths).toEqual(
    expect.arrayContaining([
      "agent",
      "agent.maxStopBlocks",
      "agent.tailLines",
      "agent.announceCallbacks",
    ]),
  );
});

test("defaults: 3 stop blocks, the callbacks table on, 15 tail lines", () => {
  expect(agentSettings(undefined)).toEqual({
    maxStopBlocks: 3,
    announceCallbacks: true,
    tailLines: 15,
  });
  expect(agentSettings({ maxStopBlocks: 0 })).toMatchObject({ maxStopBlocks: 0, tailLines: 15 });
  expect(validateConfig({ callbacks: [], agent: { maxStopBlocks: 0, tailLines: 40 } }).ok).toBe(
    true,
  );
});
