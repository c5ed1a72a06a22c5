/** `cpilot run`'s hook listener: only this session's calls, with its secret, run anything. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { claude } from "../../src/agents/claude/agent.ts";
import {
  type HookListener,
  SECRET_HEADER,
  startHookListener,
} from "../../src/hook/http-listener.ts";
import { cpilotBinary } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";

let dir = "";
let listener: HookListener;

beforeAll(async () => {
  dir = tempDir("cpilot-listener-", { git: true });
  writeFileSync(
    join(dir, "callbacks.config.json"),
    JSON.stringify({
      callbacks: [
        { name: "mark", pattern: "*.ts", run: "echo x >> ran; exit 1", per: "file", timeout: 20 },
      ],
    }),
  );
  writeFileSync(join(dir, "a.ts"), "x\n");
  listener = await startHookListener({
    agent: claude,
    cwd: dir,
    env: { ...process.env },
    fallback: ["false"],
  });
});
afterAll(() => listener.close());

const payload = () =>
  JSON.stringify({
    session_id: "s1",
    cwd: dir,
    hook_event_name: "PostToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(dir, "a.ts"), content: "x\n" },
    tool_response: { filePath: join(dir, "a.ts") },
  });

/** POST (or `method`) to the listener with exactly these headers. */
function call(
  headers: Record<string, string>,
  options: { method?: string; path?: string; body?: string } = {},
): Promise<{ status: number; body: string }> {
  const url = new URL(listener.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: url.port,
        path: options.path ?? url.pathname,
        method: options.method ?? "POST",
        headers: { "content-type": "application/json", ...headers },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (d: string) => {
          body += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body ?? payload());
  });
}

const ran = () => existsSync(join(dir, "ran"));

test("a call without the secret gets 401 and runs nothing", async () => {
  expect((await call({})).status).toBe(401);
  expect(ran()).toBe(false);
});

test("a wrong secret (same length or not) gets 403 and runs nothing", async () => {
  const wrong = listener.secret.replace(/^./, (c) => (c === "a" ? "b" : "a"));
  expect((await call({ [SECRET_HEADER]: wrong })).status).toBe(403);
  expect((await call({ [SECRET_HEADER]: "short" })).status).toBe(403);
  expect(ran()).toBe(false);
});

test("another host, path or method is refused even with the secret", async () => {
  const secret = { [SECRET_HEADER]: listener.secret };
  const port = new URL(listener.url).port;
  expect((await call({ ...secret, host: `localhost:${port}` })).status).toBe(403);
  expect((await call(secret, { path: "/hook/gemini" })).status).toBe(404);
  expect((await call(secret, { method: "PUT" })).status).toBe(405);
  expect(ran()).toBe(false);
});

test("the session's call runs the callbacks and answers in Claude Code's JSON", async () => {
  const res = await call({ [SECRET_HEADER]: listener.secret });
  expect(res.status).toBe(200);
  expect(ran()).toBe(true);
  expect(res.body).toContain("'mark' failed on a.ts");
  expect(JSON.parse(res.body)).toMatchObject({ decision: "block" });
});

test("a payload whose cwd does not exist is answered in the session's folder", async () => {
  const body = JSON.parse(payload()) as Record<string, unknown>;
  body.cwd = join(dir, "gone");
  const res = await call({ [SECRET_HEADER]: listener.secret }, { body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  expect(res.body).toContain("'mark' failed on a.ts");
});

test("a config whose loading runs code is answered by the command hook in its own process", async () => {
  const project = tempDir("cpilot-listener-ts-", { git: true });
  writeFileSync(
    join(project, "callbacks.config.ts"),
    [
      "const shell = process.env.SHELL ?? 'bash'; // reads the environment: loads fresh",
      "export default {",
      `  callbacks: [{ name: "mark", pattern: "*.ts", run: 'echo "$PPID" >> ppid; exit 1', per: "file", timeout: 20, description: shell }],`,
      "};",
      "",
    ].join("\n"),
  );
  writeFileSync(join(project, "a.ts"), "x\n");
  const own = await startHookListener({
    agent: claude,
    cwd: project,
    env: { ...process.env, CPILOT_RUNTIME_DIR: tempDir("cpilot-listener-rt-") },
    fallback: [cpilotBinary(), "hook", "claude", "--session"],
  });
  try {
    const body = JSON.stringify({
      session_id: "s2",
      cwd: project,
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: join(project, "a.ts"), content: "x\n" },
      tool_response: { filePath: join(project, "a.ts") },
    });
    const res = await fetch(own.url, {
      method: "POST",
      headers: { [SECRET_HEADER]: own.secret, "content-type": "application/json" },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("'mark' failed on a.ts");
    // started by a process of its own, not by this one
    const ppid = Number(readFileSync(join(project, "ppid"), "utf8").trim());
    expect(ppid).not.toBe(process.pid);
  } finally {
    await own.close();
  }
});

test("a call the agent gives up (Esc, its timeout) stops the runs it started", async () => {
  const slow = tempDir("cpilot-listener-slow-", { git: true });
  writeFileSync(
    join(slow, "callbacks.config.json"),
    JSON.stringify({
      callbacks: [
        {
          name: "slow",
          pattern: "*.ts",
          run: "echo $$ > slow.pid; exec sleep 60",
          per: "file",
          timeout: 120,
        },
      ],
    }),
  );
  writeFileSync(join(slow, "b.ts"), "x\n");
  const url = new URL(listener.url);
  const req = request({
    host: "127.0.0.1",
    port: url.port,
    path: url.pathname,
    method: "POST",
    headers: { "content-type": "application/json", [SECRET_HEADER]: listener.secret },
  });
  req.on("error", () => {});
  req.end(
    JSON.stringify({
      session_id: "s2",
      cwd: slow,
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: join(slow, "b.ts"), content: "x\n" },
      tool_response: { filePath: join(slow, "b.ts") },
    }),
  );
  const pidFile = join(slow, "slow.pid");
  await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 20_000);
  const pid = Number(readFileSync(pidFile, "utf8"));
  req.destroy(); // the agent hangs up before the answer
  // generous: a busy machine is slow, a leaked callback lives its whole minute
  await waitFor(() => !alive(pid), 20_000);
}, 60_000);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
