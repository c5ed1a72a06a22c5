/** Who may write to the remote cache: trusted CI's `cpilot check`, never an agent's surface. */
import { expect, test } from "bun:test";
import { writeRefusal } from "../../src/remote-cache/trust.ts";

test("only `cpilot check` with CPILOT_REMOTE_CACHE_WRITE=1 and no agent around writes", () => {
  expect(writeRefusal(true, "check", {})).toBeNull();
  expect(writeRefusal(false, "check", {})).toContain("CPILOT_REMOTE_CACHE_WRITE=1 is not set");
  for (const surface of ["hook", "mcp", "watch", "api"] as const)
    expect(writeRefusal(true, surface, {})).toContain(`cpilot ${surface} never writes`);
  for (const marker of ["AI_AGENT", "CLAUDECODE", "GEMINI_CLI", "CPILOT_SESSION_HOOKS"])
    expect(writeRefusal(true, "check", { [marker]: "1" })).toContain(`(${marker} is set)`);
  expect(writeRefusal(true, "check", { AI_AGENT: "" })).toBeNull();
});
