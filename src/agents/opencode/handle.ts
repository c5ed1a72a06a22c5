import { readFileSync } from "node:fs";
import { reportText } from "../../hook/after-edits.ts";
import { hookHandler, type Parsed } from "../../hook/call.ts";
import { modifiedNote } from "../../hook/edit-gate.ts";
import { readJsonObject, shellCommand, str } from "../../hook/hook-input.ts";
import { patchUnreadable } from "../../hook/messages.ts";
import type { PendingWrite } from "../../model/gate-types.ts";
import type { GateVerdict, HookEvent, HookReply, WrittenFile } from "../../model/hook.ts";
import { isObject } from "../../util/json-file.ts";
import { readOpencodePatch } from "../kit/patch/opencode-reading.ts";
import { patchEdits, patchWrites } from "../kit/patch/patch-files.ts";
import { opencodeProtocol } from "./protocol.ts";
import { OPENCODE_SHELL_TOOLS, OPENCODE_WRITE_TOOLS } from "./write-tools.ts";

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

/** A user message starts a turn; before a tool, its writes (or why they cannot be gated); after, what it wrote. */
function opencodeEvent(call: OpencodeCall): HookEvent | null {
  const at = { name: call.event, session: call.session, cwd: call.cwd, written: [] };
  if (call.event === "chat.message") return { ...at, kind: "prompt", turn: {} };
  if (call.event === "session.stop") return { ...at, kind: "stop" };
  const before = call.event === "tool.execute.before";
  if (!before && call.event !== "tool.execute.after") return null;
  const written = [str(call.args.filePath)];
  if (before) {
    if (!writesFiles(call)) return { ...at, kind: "pre-tool", written };
    const writes = writesOf(call);
    return typeof writes === "string"
      ? { ...at, kind: "pre-write", written, refused: writes }
      : { ...at, kind: "pre-write", written, writes };
  }
  if (OPENCODE_SHELL_TOOLS.includes(call.tool)) {
    const command = shellCommand(call.args);
    return { ...at, kind: "post-tool", shell: true, ...(command === undefined ? {} : { command }) };
  }
  if (!writesFiles(call)) return { ...at, kind: "post-tool", written };
  return { ...at, kind: "post-write", written, edits: editsOf(call) };
}

/**
 * Called by the generated plugin. Before a tool: always a verdict (the plugin refuses a
 * write that gets none), `{decision: "deny", reason}` or `{decision: "allow", args?,
 * message?}`. After: `{additional_context}` or `{}`. A stop: `{decision: "block", reason}`,
 * the next user message.
 */
export const handleOpencodeHook = hookHandler<OpencodeCall>({
  agent: "opencode",
  protocol: opencodeProtocol,
  nothing: NOTHING,
  // The before-event always gets a verdict: "nothing to say" is an explicit allow.
  allow: ALLOW,
  parse: (stdin, options) => parseOpencodeCall(stdin, options.cwd),
  event: opencodeEvent,
  gateReply: (call, _event, verdict) => gateReply(call, verdict),
  afterTool: (_event, answer) => say(reportText(answer)),
  // A user message's reply reaches nobody: what waits for the model stays waiting.
  context: () => null,
  stopReply: (_event, verdict) => {
    if (verdict.block) return { json: { decision: "block", reason: verdict.reason } };
    return verdict.notes === null ? NOTHING : { json: {}, stderr: verdict.notes };
  },
  // Only the after-event's reply reaches the model.
  tell: (_call, event) =>
    event.name === "tool.execute.before"
      ? null
      : (text) => ({ json: { additional_context: text } }),
});

/** A string naming why when it carries a patch OpenCode would refuse (cpilot refuses it too). */
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

function gateReply(call: OpencodeCall, verdict: GateVerdict): HookReply {
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

const say = (text: string): HookReply =>
  text === "" ? NOTHING : { json: { additional_context: text } };

function editsOf(call: OpencodeCall): WrittenFile[] {
  const patch = patchText(call.args);
  if (patch !== undefined) {
    const reading = readOpencodePatch(patch);
    return reading.ok ? patchEdits(call.cwd, reading.files) : [];
  }
  const filePath = str(call.args.filePath);
  if (filePath === undefined || !["write", "edit", "multiedit"].includes(call.tool)) return [];
  return [{ path: filePath, kind: "modified" }];
}
