/** A long blocking callback: progress notifications keep a client with a short timeout waiting. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type McpSession, project, startMcp } from "./_client.ts";

let proj: ReturnType<typeof project>;
let mcp: McpSession;

beforeAll(async () => {
  proj = project({
    callbacks: [
      {
        name: "slow",
        pattern: "*.txt",
        run: "sleep 1.5; echo slow done",
        timeout: 20,
        successMessage: "slow OK",
      },
    ],
  });
  mcp = await startMcp(proj.dir, { env: { CPILOT_MCP_PROGRESS_MS: "200" } });
});

afterAll(async () => {
  await mcp.close();
  proj.remove();
});

test("progress notifications arrive while callbacks run, and reset the client's timeout", async () => {
  const seen: string[] = [];
  const result = await mcp.client.callTool(
    { name: "write_file", arguments: { path: "a.txt", content: "x\n" } },
    undefined,
    {
      timeout: 800,
      resetTimeoutOnProgress: true,
      onprogress: (p) => seen.push(p.message ?? ""),
    },
  );
  const text = (result.content as { text: string }[])[0]!.text;
  expect(text).toContain("passed  slow: slow OK");
  expect(seen.length).toBeGreaterThanOrEqual(3);
  expect(seen[0]).toMatch(/^running callbacks \(\d+ s\)$/);
});
