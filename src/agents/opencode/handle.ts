import { readFileSync } from "node:fs";
import type { ResolvedConfig } from "../../config/resolve.ts";
import { afterEdits, reportText } from "../../hook/after-edits.ts";
import { configErrorForModel, emptyConfig, loadHookConfig } from "../../hook/config.ts";
import { gateFailedReason, modifiedNote } from "../../hook/edit-gate.ts";
import { gateAll } from "../../hook/gate-all.ts";
import { patchUnreadable } from "../../hook/messages.ts";
import { pathInRoot } from "../../hook/root-path.ts";
import { unreadableInputReply } from "../../hook/unreadable-input.ts";
import type { FileChange } from "../../model/batch.ts";
import type { PendingWrite } from "../../model/gate-types.ts";
import type { HookReply } from "../../model/hook.ts";
import { isObject } from "../../util/json-file.ts";
import { readOpencodePatch } from "../kit/patch/opencode-reading.ts";
import { patchChanges, patchWrites } from "../kit/patch/patch-files.ts";
import { opencodeProtocol } from "./protocol.ts";

/**
 * `cpilot hook opencode`: called by the plugin `cpilot install opencode` writes
 * (`.opencode/plugins/cpilot.ts`) with
 * `{ hook_event_name: "tool.execute.before" | "tool.execute.after", tool, session_id, call_id, args, cwd }`.
 * Replies: before → `{ decision: "deny", reason }` (the plugin throws, so the tool does not
 * run) or `{ decision: "allow", args?, message? }` (the plugin changes the args): always a
 * verdict, since the plugin refuses a write that gets none;
 * after → `{ additional_context }` (appended to what the model reads), or `{}`.
 */
export interface OpencodeCall {
  readonly event: string;
  readonly tool: string;
  readonly session: string;
  readonly cwd: string;
  readonly args: Record<string, unknown>;
}

const NOTHING: HookReply = { json: {} };
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

const ALLOW: HookReply = { json: { decision: "allow" } };

export async function handleOpencodeHook(
  stdin: string,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<HookReply> {
  let raw: unknown;
  try {
    raw = JSON.parse(stdin);
  } catch (err) {
    return unreadableInputReply(
      opencodeProtocol,
      stdin,
      `Cannot read the hook input: ${(err as Error).message}`,
    );
  }
  if (!isObject(raw))
    return unreadableInputReply(
      opencodeProtocol,
      stdin,
      "Cannot read the hook input: not a JSON object",
    );
  const call: OpencodeCall = {
    event: str(raw.hook_event_name) ?? "",
    tool: str(raw.tool) ?? "",
    session: str(raw.session_id) || "unknown-session",
    cwd: str(raw.cwd) || options.cwd,
    args: isObject(raw.args) ? raw.args : {},
  };
  if (call.event !== "tool.execute.before" && call.event !== "tool.execute.after") return NOTHING;
  const reply = await answer(call);
  // A before-event always gets a verdict: "nothing to say" is an explicit allow.
  if (
    call.event === "tool.execute.before" &&
    reply.json !== null &&
    Object.keys(reply.json).length === 0
  )
    return { ...reply, json: ALLOW.json };
  return reply;
}

async function answer(call: OpencodeCall): Promise<HookReply> {
  const loaded = await loadHookConfig(call.cwd, [str(call.args.filePath)]);
  if (loaded.kind === "none") return NOTHING;
  try {
    if (loaded.kind === "error") {
      const stderr = `cpilot: ${loaded.message}`;
      if (call.event === "tool.execute.before")
        return { ...(await before(call, await emptyConfig(loaded))), stderr };
      const note = configErrorForModel(loaded.root, call.session, loaded.message);
      return { json: note === null ? {} : { additional_context: note }, stderr };
    }
    return call.event === "tool.execute.before"
      ? await before(call, loaded.config)
      : await after(call, loaded.config);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const stderr = `cpilot: internal error in ${call.event} (please report it): ${message}`;
    if (call.event === "tool.execute.before") {
      return { json: { decision: "deny", reason: gateFailedReason(message) }, stderr };
    }
    return { ...NOTHING, stderr };
  }
}

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
  const patch = str(a.patchText) ?? str(a.patch);
  if (patch === undefined) return [];
  const reading = readOpencodePatch(patch);
  if (!reading.ok) return patchUnreadable("OpenCode", reading.error);
  return patchWrites(reading.files, base, call.cwd);
}

async function before(call: OpencodeCall, config: ResolvedConfig): Promise<HookReply> {
  const writes = writesOf(call);
  if (typeof writes === "string") return { json: { decision: "deny", reason: writes } };
  if (writes.length === 0) return NOTHING;
  const verdict = await gateAll(opencodeProtocol, config, writes, call.cwd);
  if (verdict.kind === "allow") return NOTHING;
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

async function after(call: OpencodeCall, config: ResolvedConfig): Promise<HookReply> {
  const files = changesOf(call, config);
  const report = await afterEdits({ config, agent: "opencode", session: call.session, files });
  const text = reportText(report);
  return text === "" ? NOTHING : { json: { additional_context: text } };
}

function changesOf(call: OpencodeCall, config: ResolvedConfig): FileChange[] {
  const patch = str(call.args.patchText) ?? str(call.args.patch);
  if (patch !== undefined) {
    const reading = readOpencodePatch(patch);
    return reading.ok ? patchChanges(config.root, call.cwd, reading.files) : [];
  }
  const filePath = str(call.args.filePath);
  if (filePath === undefined || !["write", "edit", "multiedit"].includes(call.tool)) return [];
  const rel = pathInRoot(config.root, call.cwd, filePath);
  return rel === null ? [] : [{ path: rel, kind: "modified" }];
}
