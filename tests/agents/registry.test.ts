/**
 * The agent registry: every agent answers to its name, and what each declares holds up
 * against the rest of cpilot (the gate protects the files that wire it in).
 */
import { expect, test } from "bun:test";
import { AGENTS, agentNamed, agentOfCommand } from "../../src/agents/all-agents.ts";
import { AGENT_NAMES, hookFilesOf, loadAgent } from "../../src/agents/registry.ts";
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

test("each registry line loads the agent of its name, in the order of the full list", async () => {
  expect(AGENTS.map((a) => a.name)).toEqual([...AGENT_NAMES]);
  for (const name of AGENT_NAMES) expect((await loadAgent(name))?.name).toBe(name);
  expect(await loadAgent("nobody")).toBeUndefined();
  expect(await loadAgent("toString")).toBeUndefined();
});

test("each agent's programs start it under cpilot run", () => {
  for (const agent of AGENTS)
    for (const program of agent.programs) expect(agentOfCommand(`/usr/bin/${program}`)).toBe(agent);
  expect(agentOfCommand("vim")).toBeUndefined();
});

test("the gate protects every file an agent's hooks live in", () => {
  for (const name of AGENT_NAMES) {
    expect(hookFilesOf(name).length).toBeGreaterThan(0);
    for (const file of hookFilesOf(name)) expect(ownConfigKind(`sub/${file}`)).not.toBeNull();
  }
});
