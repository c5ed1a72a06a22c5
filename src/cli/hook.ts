/** `cpilot hook <agent>`: the one command an agent's hook config calls. Protocol on stdout only. */
import { CpilotError } from "../util/errors.ts";

const USAGE = "cpilot hook claude   (reads the hook event JSON on stdin; Claude Code calls it)";

/** Longest wait for the agent to send and close stdin; a hook must never hang. */
export const STDIN_TIMEOUT_MS = 10_000;

/** `CPILOT_HOOK_STDIN_TIMEOUT_MS` overrides the wait (tests, very slow machines). */
function stdinTimeout(): number {
  const ms = Number(process.env.CPILOT_HOOK_STDIN_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : STDIN_TIMEOUT_MS;
}

/** Hook payloads are JSON with file contents in them; past this something is wrong. */
const MAX_STDIN_BYTES = 64 * 1024 * 1024;

/** Read all of stdin, or give up after `timeoutMs` or `MAX_STDIN_BYTES` (returns what came). */
export function readStdin(
  timeoutMs = stdinTimeout(),
): Promise<{ text: string; complete: boolean }> {
  const stdin = process.stdin;
  if (stdin.isTTY) return Promise.resolve({ text: "", complete: false });
  return new Promise((resolvePromise) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (complete: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stdin.removeAllListeners("data");
      if (!complete) stdin.destroy();
      resolvePromise({ text: Buffer.concat(chunks).toString("utf8"), complete });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    stdin.on("data", (chunk: Buffer | string) => {
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += buf.length;
      chunks.push(buf);
      if (size > MAX_STDIN_BYTES) finish(false);
    });
    stdin.once("end", () => finish(true));
    stdin.once("error", () => finish(false));
  });
}

/**
 * Answer one hook call. Always exits 0 with protocol JSON (or nothing) on stdout: Claude
 * Code drops exit 1 silently, and exit 2 in PostToolBatch ends the agent's loop.
 */
export async function hookCommand(args: string[], ctx: { cwd: string }): Promise<number> {
  const [agent, ...rest] = args;
  if (agent === "--background") {
    const spec = rest[0];
    if (spec === undefined)
      throw new CpilotError("Cannot run in background: no spec file", { hint: USAGE });
    const { runBackground } = await import("../agents/_shared/background-run.ts");
    await runBackground(spec);
    return 0;
  }
  if (agent !== "claude") {
    throw new CpilotError(`Cannot answer hooks for "${agent ?? ""}": cpilot knows "claude"`, {
      hint: `usage: ${USAGE}`,
    });
  }
  const { text, complete } = await readStdin();
  if (!complete) {
    process.stderr.write(
      text === "" && process.stdin.isTTY
        ? `cpilot: no hook input: this command reads Claude Code's hook JSON on stdin\nusage: ${USAGE}\n`
        : `cpilot: Cannot read the hook input: stdin did not close within ${stdinTimeout() / 1000} s (or was too large)\n`,
    );
    return 0;
  }
  const { handleClaudeHook } = await import("../agents/claude/handle.ts");
  const reply = await handleClaudeHook(text, { cwd: ctx.cwd, env: process.env });
  if (reply.stderr) process.stderr.write(`${reply.stderr}\n`);
  if (reply.json !== null) process.stdout.write(`${JSON.stringify(reply.json)}\n`);
  return 0;
}
