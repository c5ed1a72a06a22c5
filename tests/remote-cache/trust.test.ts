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

test("a surface opens the cache from the environment: agents' surfaces read only, and say so when a write was asked", async () => {
  const { openRemoteCache } = await import("../../src/remote-cache/open.ts");
  const shape = (v: unknown) => v;
  const env = {
    CPILOT_REMOTE_CACHE_URL: "http://127.0.0.1:9",
    CPILOT_REMOTE_CACHE_TOKEN: "t",
    CPILOT_REMOTE_CACHE_TEAM: "team_x",
    CPILOT_REMOTE_CACHE_WRITE: "1",
  };
  expect(openRemoteCache("check", shape, { env: {} })).toEqual({ cache: null, notices: [] });
  const check = openRemoteCache("check", shape, { env });
  expect(check.notices).toEqual([]);
  const hook = openRemoteCache("hook", shape, { env });
  expect(hook.notices).toEqual([
    "cpilot: CPILOT_REMOTE_CACHE_WRITE=1 ignored: cpilot hook never writes to the remote cache",
  ]);
  // a refused writer sends nothing (nothing listens on port 9: a send would be a notice)
  expect(await hook.cache?.put("a".repeat(40), {})).toBe(false);
  expect(hook.cache?.notices()).toEqual([]);
  const bad = openRemoteCache("check", shape, { env: { ...env, CPILOT_REMOTE_CACHE_TOKEN: "" } });
  expect(bad.cache).toBeNull();
  expect(bad.notices[0]).toContain("remote cache off: CPILOT_REMOTE_CACHE_TOKEN is not set");
});
