/** A long blocking callback: progress notifications keep a client with a short timeout waiting. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/tmp.ts";
import { type McpSession, project, startMcp } from "./_client.ts";

/** Notifications come at most one per PROGRESS_MS: seeing NEEDED of them takes past the client's timeout. */
const PROGRESS_MS = 200;
const CLIENT_TIMEOUT_MS = 5000;
const NEEDED = 30;
const release = join(tempDir("cpilot-progress-"), "release");

let proj: ReturnType<typeof project>;
let mcp: McpSession;

beforeAll(async () => {
  proj = project({
    callbacks: [
      {
        name: "slow",
        pattern: "*.txt",
        // it runs until the test has seen enough progress
        run: `until [ -e '${release}' ]; do sleep 0.05; done; echo slow done`,
        timeout: 60,
        successMessage: "slow OK",
      },
    ],
  });
  mcp = await startMcp(proj.dir, { env: { CPILOT_MCP_PROGRESS_MS: String(PROGRESS_MS) } });
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
      timeout: CLIENT_TIMEOUT_MS,
      resetTimeoutOnProgress: true,
      onprogress: (p) => {
        seen.push(p.message ?? "");
        if (seen.length === NEEDED) writeFileSync(release, "");
      },
    },
  );
  expect(NEEDED * PROGRESS_MS).toBeGreaterThan(CLIENT_TIMEOUT_MS);
  const text = (result.content as { text: string }[])[0]!.text;
  expect(text).toContain("passed  slow: slow OK");
  expect(seen.length).toBeGreaterThanOrEqual(NEEDED);
  expect(seen[0]).toMatch(/^running callbacks \(\d+ s\)$/);
});
