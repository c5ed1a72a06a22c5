/** `cpilot hook <agent>`: the one command an agent's hook config calls. Protocol on stdout only. */
import { bun, type BunStdinReader as ChunkReader } from "../platform/bun.ts";
import { isTerminal, writeFd } from "../platform/stdio.ts";
import { CpilotError } from "../util/errors.ts";
import { mark } from "../util/trace.ts";

const USAGE =
  "cpilot hook claude|gemini|cursor|codex|opencode   (reads the hook event JSON on stdin; the agent calls it)";

type HookHandler = (
  stdin: string,
  options: { cwd: string; env: NodeJS.ProcessEnv },
) => Promise<{ json: Record<string, unknown> | null; stderr?: string; exitCode?: number }>;

/** One adapter per agent, loaded on demand: each turns its agent's JSON into its reply. */
const ADAPTERS: Record<string, () => Promise<HookHandler>> = {
  claude: async () => (await import("../agents/claude/handle.ts")).handleClaudeHook,
  gemini: async () => (await import("../agents/gemini/handle.ts")).handleGeminiHook,
  cursor: async () => (await import("../agents/cursor/handle.ts")).handleCursorHook,
  codex: async () => (await import("../agents/codex/handle.ts")).handleCodexHook,
  opencode: async () => (await import("../agents/opencode/handle.ts")).handleOpencodeHook,
};

/** Longest wait for the agent to send and close stdin; a hook must never hang. */
export const STDIN_TIMEOUT_MS = 10_000;

/** `CPILOT_HOOK_STDIN_TIMEOUT_MS` overrides the wait (tests, very slow machines). */
function stdinTimeout(): number {
  const ms = Number(process.env.CPILOT_HOOK_STDIN_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : STDIN_TIMEOUT_MS;
}

/** Hook payloads are JSON with file contents in them; past this something is wrong. */
const MAX_STDIN_BYTES = 64 * 1024 * 1024;

/** Read all of stdin, or give up after `timeoutMs` or `MAX_STDIN_BYTES` (complete: false). */
export async function readStdin(
  timeoutMs = stdinTimeout(),
): Promise<{ text: string; complete: boolean }> {
  if (isTerminal(0)) return { text: "", complete: false };
  const reader = stdinReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolvePromise) => {
    timer = setTimeout(() => resolvePromise("timeout"), timeoutMs);
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timeout]);
      if (next === "timeout" || size > MAX_STDIN_BYTES) {
        // Cancelling releases the pipe, so a writer that never closes cannot keep us alive.
        reader.cancel().catch(() => {});
        return { text: "", complete: false };
      }
      if (next.done) break;
      parts.push(next.value);
      size += next.value.length;
    }
  } catch {
    return { text: "", complete: false };
  } finally {
    clearTimeout(timer);
  }
  return { text: Buffer.concat(parts).toString("utf8"), complete: true };
}

/**
 * Bun's own stdin stream (about 1 ms to EOF, measured in the compiled binary) rather than
 * `process.stdin` (about 8 ms): this runs on every edit the agent makes.
 */
function stdinReader(): ChunkReader {
  if (bun) return bun.stdin.stream().getReader();
  const streams = ReadableStream as unknown as { from(it: AsyncIterable<Uint8Array>): unknown };
  return (streams.from(process.stdin) as { getReader(): ChunkReader }).getReader();
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
  const adapter = agent === undefined ? undefined : ADAPTERS[agent];
  if (adapter === undefined) {
    const known = Object.keys(ADAPTERS).join(", ");
    throw new CpilotError(`Cannot answer hooks for "${agent ?? ""}": cpilot knows ${known}`, {
      hint: `usage: ${USAGE}`,
    });
  }
  const { text, complete } = await readStdin();
  mark("hook input read");
  if (!complete) {
    writeFd(
      2,
      text === "" && isTerminal(0)
        ? `cpilot: no hook input: this command reads the agent's hook JSON on stdin\nusage: ${USAGE}\n`
        : `cpilot: Cannot read the hook input: stdin did not close within ${stdinTimeout() / 1000} s (or was too large)\n`,
    );
    return 0;
  }
  const handle = await adapter();
  const reply = await handle(text, { cwd: ctx.cwd, env: process.env });
  mark("hook answered");
  if (reply.stderr) writeFd(2, `${reply.stderr}\n`);
  if (reply.json !== null) writeFd(1, `${JSON.stringify(reply.json)}\n`);
  return reply.exitCode ?? 0;
}
