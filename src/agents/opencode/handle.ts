import { readFileSync } from "node:fs";
import type { ResolvedConfig } from "../../config/resolve.ts";
import { afterEdits, reportText } from "../../hook/after-edits.ts";
import { hookHandler, type Parsed } from "../../hook/call.ts";
import { modifiedNote } from "../../hook/edit-gate.ts";
import { gateAll } from "../../hook/gate-all.ts";
import { readJsonObject, str } from "../../hook/hook-input.ts";
import { patchUnreadable } from "../../hook/messages.ts";
import {
  type ShellCall,
  shellStopGate,
  shellToolReport,
  shellTurnStarts,
} from "../../hook/shell-check.ts";
import { pathInRoot } from "../../match/root-relative.ts";
import type { FileChange } from "../../model/batch.ts";
import type { PendingWrite } from "../../model/gate-types.ts";
import type { HookEvent, HookReply } from "../../model/hook.ts";
import { isObject } from "../../util/json-file.ts";
import { readOpencodePatch } from "../kit/patch/opencode-reading.ts";
import { patchChanges, patchWrites } from "../kit/patch/patch-files.ts";
import { opencodeProtocol } from "./protocol.ts";
import { OPENCODE_SHELL_TOOLS, OPENCODE_WRITE_TOOLS } from "./write-tools.ts";

/** One call of the plugin, as `cpilot hook opencode` reads it. */
export interface OpencodeCall {
  readonly event: string;
  readonly tool: string;
  readonly session: string;
  readonly cwd: string;
  readonly args: Record<string, unknown>;
}

const NOTHING: HookReply = { json: {} };

const ALLOW: HookReply = { json: { decision: "allow" } };

function parseOpencodeCall(stdin: string, cwd: string): Parsed<OpencodeCall> {
  const read = readJsonObject(stdin);
  if (!read.ok) return read;
  const { raw } = read;
  return {
    ok: true,
    input: {
      event: str(raw.hook_event_name) ?? "",
      tool: str(raw.tool) ?? "",
      session: str(raw.session_id) || "unknown-session",
      cwd: str(raw.cwd) || cwd,
      args: isObject(raw.args) ? raw.args : {},
    },
  };
}

const patchText = (args: Record<string, unknown>): string | undefined =>
  str(args.patchText) ?? str(args.patch);

/** Whether the call writes files, as the plugin decides it (it refuses such a call with no verdict). */
const writesFiles = (call: OpencodeCall): boolean =>
  (OPENCODE_WRITE_TOOLS as readonly string[]).includes(call.tool) ||
  patchText(call.args) !== undefined;

function opencodeEvent(call: OpencodeCall): HookEvent | null {
  const at = { name: call.event, session: call.session, cwd: call.cwd };
  if (call.event === "chat.message") return { ...at, kind: "prompt", written: [] };
  if (call.event === "session.stop") return { ...at, kind: "stop", written: [] };
  const before = call.event === "tool.execute.before";
  if (!before && call.event !== "tool.execute.after") return null;
  const writes = writesFiles(call);
  return {
    kind: before ? (writes ? "pre-write" : "pre-tool") : writes ? "post-write" : "post-tool",
    name: call.event,
    session: call.session,
    cwd: call.cwd,
    written: [str(call.args.filePath)],
  };
}

const isBefore = (event: HookEvent): boolean => event.name === "tool.execute.before";

/**
 * `cpilot hook opencode`: called by the plugin `cpilot install opencode` writes
 * (`.opencode/plugins/cpilot.ts`) with
 * `{ hook_event_name: "tool.execute.before" | "tool.execute.after", tool, session_id, call_id, args, cwd }`.
 * Replies: before → `{ decision: "deny", reason }` (the plugin throws, so the tool does not
 * run) or `{ decision: "allow", args?, message? }` (the plugin changes the args): always a
 * verdict, since the plugin refuses a write that gets none;
 * after → `{ additional_context }` (appended to what the model reads), or `{}`.
 */
export const handleOpencodeHook = hookHandler<OpencodeCall>({
  agent: "opencode",
  protocol: opencodeProtocol,
  nothing: NOTHING,
  // The plugin's before-event always gets a verdict: "nothing to say" is an explicit allow.
  allow: ALLOW,
  parse: (stdin, options) => parseOpencodeCall(stdin, options.cwd),
  event: opencodeEvent,
  answer: (call, event, config) => {
    if (event.kind === "prompt") return turnStart(call, config);
    if (event.kind === "stop") return stop(call, config);
    return isBefore(event) ? before(call, config) : after(call, config);
  },
  // Only the after-event's reply reaches the model.
  tell: (_call, event) =>
    isBefore(event) ? null : (text) => ({ json: { additional_context: text } }),
});

/**
 * The writes an OpenCode tool call makes: write, edit, multiedit, patch/apply_patch; a
 * string naming why when it carries a patch OpenCode would refuse (cpilot refuses it too).
 */
function writesOf(call: OpencodeCall): PendingWrite[] | string {
  const a = call.args;
  const base = { tool: call.tool, agent: "opencode", session: call.session };
  const filePath = str(a.filePath);
  if (call.tool === "write" && filePath)
    return [{ ...base, path: filePath, content: str(a.content) ?? "" }];
  if ((call.tool === "edit" || call.tool === "multiedit") && filePath) {
    const oldString = str(a.oldString);
    const newString = str(a.newString);
    return [
      {
        ...base,
        path: filePath,
        ...(oldString === undefined ? {} : { oldString }),
        ...(newString === undefined ? {} : { newString }),
        ...(a.replaceAll === true ? { replaceAll: true } : {}),
      },
    ];
  }
  const patch = patchText(a);
  if (patch === undefined) return [];
  const reading = readOpencodePatch(patch);
  if (!reading.ok) return patchUnreadable("OpenCode", reading.error);
  return patchWrites(reading.files, base, call.cwd);
}

async function before(call: OpencodeCall, config: ResolvedConfig): Promise<HookReply> {
  const writes = writesOf(call);
  if (typeof writes === "string") return { json: { decision: "deny", reason: writes } };
  if (writes.length === 0) return ALLOW;
  const verdict = await gateAll(opencodeProtocol, config, writes, call.cwd);
  if (verdict.kind === "allow") return ALLOW;
  if (verdict.kind === "deny") return { json: { decision: "deny", reason: verdict.reason } };
  const change = verdict.changes[0];
  const filePath = str(call.args.filePath);
  if (verdict.changes.length > 1 || change === undefined || filePath === undefined) {
    return {
      json: {
        decision: "deny",
        reason: `A write-gate plugin wants this written differently; write each file whole with the write tool instead:\n${verdict.changes.map((c) => c.decision.modified?.summary ?? "").join("\n")}`,
      },
    };
  }
  const { decision } = change;
  const message = modifiedNote(call.tool, decision);
  if (decision.content === undefined || call.tool === "write") {
    const args = {
      filePath: decision.path,
      ...(decision.content === undefined ? {} : { content: decision.content }),
    };
    return { json: { decision: "allow", args, message } };
  }
  let current = "";
  try {
    current = readFileSync(decision.path, "utf8");
  } catch {
    // missing: cannot be expressed as an edit
  }
  if (current === "" || call.tool !== "edit") {
    return {
      json: {
        decision: "deny",
        reason: `A write-gate plugin wants this file written differently, and this edit cannot carry the whole file. Use the write tool with the whole file instead. What the plugin changed:\n${decision.modified?.summary ?? ""}`,
      },
    };
  }
  const args = {
    filePath: decision.path,
    oldString: current,
    newString: decision.content,
    replaceAll: false,
  };
  return { json: { decision: "allow", args, message } };
}

/** A user message starts a turn: the project's files as they are now are the person's. */
async function turnStart(call: OpencodeCall, config: ResolvedConfig): Promise<HookReply> {
  await shellTurnStarts(shellCall(call, config));
  return NOTHING;
}

/**
 * The agent would finish its turn: the pipeline's stop gate, with what the shell changed
 * since the last look checked first. `{ decision: "block", reason }` makes the plugin hand
 * the reason to the model as the next user message; the notes of a stop let through go to
 * stderr, for the person.
 */
async function stop(call: OpencodeCall, config: ResolvedConfig): Promise<HookReply> {
  const verdict = await shellStopGate(shellCall(call, config));
  if (verdict.block) return { json: { decision: "block", reason: verdict.reason } };
  return verdict.notes === null ? NOTHING : { json: {}, stderr: verdict.notes };
}

async function after(call: OpencodeCall, config: ResolvedConfig): Promise<HookReply> {
  // After a shell command: what it changed since the last look, checked like an edit, and what waited.
  if (OPENCODE_SHELL_TOOLS.includes(call.tool))
    return say(reportText(await shellToolReport(shellCall(call, config))));
  const files = changesOf(call, config);
  const report = await afterEdits({ config, agent: "opencode", session: call.session, files });
  return say(reportText(report));
}

const shellCall = (call: OpencodeCall, config: ResolvedConfig): ShellCall => ({
  config,
  agent: "opencode",
  session: call.session,
});

const say = (text: string): HookReply =>
  text === "" ? NOTHING : { json: { additional_context: text } };

function changesOf(call: OpencodeCall, config: ResolvedConfig): FileChange[] {
  const patch = patchText(call.args);
  if (patch !== undefined) {
    const reading = readOpencodePatch(patch);
    return reading.ok ? patchChanges(config.root, call.cwd, reading.files) : [];
  }
  const filePath = str(call.args.filePath);
  if (filePath === undefined || !["write", "edit", "multiedit"].includes(call.tool)) return [];
  const rel = pathInRoot(config.root, call.cwd, filePath);
  return rel === null ? [] : [{ path: rel, kind: "modified" }];
}
