/**
 * The config `cpilot doctor --prove` writes in its throwaway project, answered by the built
 * binary as Claude Code's hooks would call it: its check fails on purpose, and the stop is
 * still let through, so a live proof's agent stops after the scripted "done" instead of
 * asking the model again for each held stop.
 */
import { afterEach, expect, test } from "bun:test";
import { FAIL_MARK, PROOF_CONFIG } from "../../src/doctor/prove.ts";
import { contextOf, makeProject, type Project, postWrite } from "../agents/claude/_helpers.ts";

let project: Project | undefined;
afterEach(() => project?.remove());

test("the proof's failing check reaches the model, and its stop is not held", () => {
  project = makeProject(PROOF_CONFIG, { "proof/check.txt": "x\n" });
  const after = project.hook(postWrite(project.path("proof/check.txt")), {});
  const told = JSON.stringify(after.json) + contextOf(after.json);
  expect(told).toContain(FAIL_MARK);
  const stop = project.hook({
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: "done",
  });
  expect(stop.code).toBe(0);
  expect(stop.stdout).not.toContain('"block"');
});
