/**
 * The agent registry: every agent answers to its name, and what each declares holds up
 * against the rest of cpilot (the gate protects the files that wire it in).
 */
import { expect, test } from "bun:test";
import { AGENTS, agentNamed, agentOfCommand } from "../../src/agents/registry.ts";
import { ownConfigKind } from "../../src/gate/own-config.ts";

test("names are unique, lower case, and found by agentNamed", () => {
  const names = AGENTS.map((a) => a.name);
  expect(new Set(names).size).toBe(names.length);
  for (const agent of AGENTS) {
    expect(agent.name).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(agentNamed(agent.name)).toBe(agent);
  }
  expect(agentNamed("nobody")).toBeUndefined();
});

test("each agent's programs start it under cpilot run", () => {
  for (const agent of AGENTS)
    for (const program of agent.programs) expect(agentOfCommand(`/usr/bin/${program}`)).toBe(agent);
  expect(agentOfCommand("vim")).toBeUndefined();
});

test("the gate protects every file an agent's hooks live in", () => {
  for (const agent of AGENTS) {
    expect(agent.hookFiles.length).toBeGreaterThan(0);
    for (const file of agent.hookFiles) expect(ownConfigKind(file)).not.toBeNull();
  }
});
