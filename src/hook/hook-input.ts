// The agent's JSON on stdin, read with a deadline and a size limit.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import type { PendingWrite } from "../model/gate-types.ts";
import { bun, type BunStdinReader as ChunkReader } from "../platform/bun.ts";
import { whenStopped } from "../platform/process-stop.ts";
import { isTerminal } from "../platform/stdio.ts";
import { isObject, type JsonObject } from "../util/json-file.ts";
import { decodeBytes } from "../util/path-bytes.ts";

export interface HookInput {
  readonly text: string;
  readonly complete: boolean;
  readonly problem?: string;
}

/** A hook must never hang. */
export const STDIN_TIMEOUT_MS = 10_000;

function stdinTimeout(): number {
  const ms = Number(process.env.CPILOT_HOOK_STDIN_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : STDIN_TIMEOUT_MS;
}

/** Payloads carry file contents; past this something is wrong. */
const MAX_STDIN_BYTES = 64 * 1024 * 1024;

/** The event name comes before the tool input. */
const KEPT_PREFIX = 1024 * 1024;

/** Gives up after `timeoutMs` or `MAX_STDIN_BYTES`, keeping the start of what arrived for the event name. */
export async function readStdin(timeoutMs = stdinTimeout()): Promise<HookInput> {
  if (isTerminal(0)) return { text: "", complete: false };
  const parts: Uint8Array[] = [];
  let size = 0;
  const keep = (chunk: Uint8Array): void => {
    if (size < KEPT_PREFIX || size + chunk.length <= MAX_STDIN_BYTES) parts.push(chunk);
    size += chunk.length;
  };
  const prefix = (): string => Buffer.concat(parts).subarray(0, KEPT_PREFIX).toString("utf8");
  const overLimit = `Cannot read the hook input: it is over ${MAX_STDIN_BYTES / 1024 / 1024} MiB`;
  // Nearly always the agent has written all of it and closed: then no stream is needed.
  const ended = readAtOnce(keep, () => size > MAX_STDIN_BYTES);
  if (size > MAX_STDIN_BYTES) return { text: prefix(), complete: false, problem: overLimit };
  if (ended) return { text: decodeBytes(Buffer.concat(parts)), complete: true };
  const reader = stdinReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // SIGTERM (the agent's hook timeout) ends the wait too.
  const timeout = Promise.race([
    new Promise<"timeout">((resolvePromise) => {
      timer = setTimeout(() => resolvePromise("timeout"), timeoutMs);
    }),
    whenStopped(),
  ]);
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timeout]);
      if (next === "timeout" || next === "stopped" || size > MAX_STDIN_BYTES) {
        // Cancelling releases the pipe, so a writer that never closes cannot keep us alive.
        reader.cancel().catch(() => {});
        const problem =
          next === "timeout"
            ? `Cannot read the hook input: stdin did not close within ${timeoutMs / 1000} s`
            : next === "stopped"
              ? "Cannot read the hook input: the hook was stopped (SIGTERM) before it arrived"
              : overLimit;
        return { text: prefix(), complete: false, problem };
      }
      if (next.done) break;
      keep(next.value);
    }
  } catch (err) {
    return {
      text: prefix(),
      complete: false,
      problem: `Cannot read the hook input: ${err instanceof Error ? err.message : String(err)}`,
    };
  } finally {
    clearTimeout(timer);
  }
  // bytes that are not UTF-8 (a file name) are kept, not made U+FFFD: see path-bytes.ts
  return { text: decodeBytes(Buffer.concat(parts)), complete: true };
}

const READ_CHUNK = 64 * 1024;

/**
 * Reads what stdin holds now without waiting, through a second, non-blocking descriptor
 * (fd 0 stays as the agent made it). True when the writer closed. A socket, or a system
 * without /proc, is left to the stream: reading it here could block.
 */
function readAtOnce(keep: (chunk: Uint8Array) => void, full: () => boolean): boolean {
  let fd = 0;
  try {
    const st = fstatSync(0);
    if (st.isFIFO()) fd = openSync("/proc/self/fd/0", constants.O_RDONLY | constants.O_NONBLOCK);
    else if (!st.isFile()) return false;
  } catch {
    return false;
  }
  try {
    while (!full()) {
      const chunk = new Uint8Array(READ_CHUNK);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) return true;
      keep(chunk.subarray(0, n));
    }
    return false;
  } catch {
    return false; // EAGAIN: the writer is still at it; the stream takes the rest
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

/** `process.stdin` is several times slower to reach EOF, and this runs on every edit. */
function stdinReader(): ChunkReader {
  if (bun) return bun.stdin.stream().getReader();
  const streams = ReadableStream as unknown as { from(it: AsyncIterable<Uint8Array>): unknown };
  return (streams.from(process.stdin) as { getReader(): ChunkReader }).getReader();
}

export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** A shell tool's command text (`command` or `cmd`, a string or an argv); undefined when none. */
export function shellCommand(args: Readonly<Record<string, unknown>>): string | undefined {
  for (const value of [args.command, args.cmd]) {
    if (typeof value === "string") return value;
    if (Array.isArray(value) && value.length > 0) return value.map(String).join(" ");
  }
  return undefined;
}

/** From an edit tool's fields: the text it replaces and its replacement, where given as strings. */
export function editWrite(
  base: PendingWrite,
  fields: { oldString: unknown; newString: unknown; replaceAll?: boolean },
): PendingWrite {
  const oldString = str(fields.oldString);
  const newString = str(fields.newString);
  return {
    ...base,
    ...(oldString === undefined ? {} : { oldString }),
    ...(newString === undefined ? {} : { newString }),
    ...(fields.replaceAll === true ? { replaceAll: true } : {}),
  };
}

export function readJsonObject(
  text: string,
): { ok: true; raw: JsonObject } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    const what = text.trim() === "" ? "stdin was empty" : (err as Error).message;
    return { ok: false, error: `Cannot read the hook input: ${what}` };
  }
  if (!isObject(raw)) return { ok: false, error: "Cannot read the hook input: not a JSON object" };
  return { ok: true, raw };
}

/** Checked by hand (no schema library on the hot path); a bad payload is an error message, never a crash. */
export function readHookJson(
  text: string,
): { ok: true; raw: JsonObject; event: string } | { ok: false; error: string } {
  const read = readJsonObject(text);
  if (!read.ok) return read;
  const { raw } = read;
  const event = str(raw.hook_event_name);
  if (!event) return { ok: false, error: "Cannot read the hook input: no hook_event_name" };
  return { ok: true, raw, event };
}

/** Shared by Claude Code, Codex and Gemini. */
export function toolHookFields(
  raw: JsonObject,
  fallbackCwd: string,
): { session: string; cwd: string; toolName: string; toolInput: JsonObject } {
  return {
    session: str(raw.session_id) || "unknown-session",
    cwd: str(raw.cwd) || fallbackCwd,
    toolName: str(raw.tool_name) ?? "",
    toolInput: isObject(raw.tool_input) ? raw.tool_input : {},
  };
}

export interface ToolHookPayload<R> {
  readonly event: string;
  readonly session: string;
  readonly cwd: string;
  readonly toolName: string;
  readonly toolInput: JsonObject;
  readonly toolResponse: R;
}

/** Claude Code's schema (Codex, Gemini, Qwen too); `fallbackCwd` when it has no cwd. */
export function parseToolHookPayload<R>(
  text: string,
  fallbackCwd: string,
  response: (value: unknown) => R,
): { ok: true; input: ToolHookPayload<R> } | { ok: false; error: string } {
  const read = readHookJson(text);
  if (!read.ok) return read;
  const { raw, event } = read;
  return {
    ok: true,
    input: {
      event,
      ...toolHookFields(raw, fallbackCwd),
      toolResponse: response(raw.tool_response),
    },
  };
}

/** Gemini's and Qwen's `{llmContent, returnDisplay, error?}`. */
export const objectResponse = (value: unknown): JsonObject | undefined =>
  isObject(value) ? value : undefined;
