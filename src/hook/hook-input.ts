// The hook call's input: the agent's JSON on stdin, read with a deadline and a size limit,
// then read as the JSON object every agent's payload is (each agent's protocol file reads
// its own fields from it).
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import type { PendingWrite } from "../model/gate-types.ts";
import { bun, type BunStdinReader as ChunkReader } from "../platform/bun.ts";
import { whenStopped } from "../platform/process-stop.ts";
import { isTerminal } from "../platform/stdio.ts";
import { isObject, type JsonObject } from "../util/json-file.ts";
import { decodeBytes } from "../util/path-bytes.ts";

/** What reading stdin gave: all of it, or (complete: false) why not and what had arrived. */
export interface HookInput {
  readonly text: string;
  readonly complete: boolean;
  readonly problem?: string;
}

/** Longest wait for the agent to send and close stdin; a hook must never hang. */
export const STDIN_TIMEOUT_MS = 10_000;

/** `CPILOT_HOOK_STDIN_TIMEOUT_MS` overrides the wait (tests, very slow machines). */
function stdinTimeout(): number {
  const ms = Number(process.env.CPILOT_HOOK_STDIN_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : STDIN_TIMEOUT_MS;
}

/** Hook payloads are JSON with file contents in them; past this something is wrong. */
const MAX_STDIN_BYTES = 64 * 1024 * 1024;

/** What the sniffing of an unreadable input keeps: the event name comes before the tool input. */
const KEPT_PREFIX = 1024 * 1024;

/**
 * Read all of stdin, or give up after `timeoutMs` or `MAX_STDIN_BYTES` (complete: false,
 * with `problem` and the start of what arrived, for the event name).
 */
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
  // SIGTERM (the agent's hook timeout) ends the wait too: the call is answered at once.
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

/** What one read at once takes at most. */
const READ_CHUNK = 64 * 1024;

/**
 * Read what stdin holds now, without waiting: a file to its end, a pipe until it is empty,
 * through a second, non-blocking descriptor of the pipe (fd 0 stays as the agent made it).
 * True when that was all (the writer closed). A socket or anything else, or a system
 * without /proc, is left to the stream: reading it here could block. Cheaper than the
 * stream for a payload already there, on every hook call.
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

/**
 * Bun's own stdin stream rather than `process.stdin`, several times slower to reach EOF:
 * this runs on every edit the agent makes.
 */
function stdinReader(): ChunkReader {
  if (bun) return bun.stdin.stream().getReader();
  const streams = ReadableStream as unknown as { from(it: AsyncIterable<Uint8Array>): unknown };
  return (streams.from(process.stdin) as { getReader(): ChunkReader }).getReader();
}

/** A string field, or undefined for anything else. */
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/**
 * The write an edit tool asks the gate for, from its payload's fields: the text it
 * replaces and its replacement, each where the payload gives it as a string.
 */
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

/** A hook payload as one JSON object; an error message for anything else. */
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

/**
 * The first step of every agent's hook payload: JSON, an object, with a `hook_event_name`.
 * Checked by hand (no schema library on the hot path); a bad payload is an error message,
 * never a crash.
 */
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

/** The fields Claude Code's schema shares with Codex and Gemini: session, cwd, tool name and input. */
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

/** A payload in Claude Code's schema: the event, the tool fields, and the tool's response as `response` reads it. */
export interface ToolHookPayload<R> {
  readonly event: string;
  readonly session: string;
  readonly cwd: string;
  readonly toolName: string;
  readonly toolInput: JsonObject;
  readonly toolResponse: R;
}

/** Parse a payload in Claude Code's schema (Codex, Gemini, Qwen); `fallbackCwd` when it has no cwd. */
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

/** A `tool_response` object (Gemini's and Qwen's `{llmContent, returnDisplay, error?}`), else undefined. */
export const objectResponse = (value: unknown): JsonObject | undefined =>
  isObject(value) ? value : undefined;
