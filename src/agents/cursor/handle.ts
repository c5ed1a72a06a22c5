import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { reportText } from "../../hook/after-edits.ts";
import { hookHandler } from "../../hook/call.ts";
import { modifiedNote } from "../../hook/edit-gate.ts";
import type { GateVerdict, HookEvent, HookReply, WrittenFile } from "../../model/hook.ts";
import { sha1Hex } from "../../platform/digest.ts";
import { hashRegularFile } from "../../util/read-regular.ts";
import { type CursorHookInput, parseCursorInput } from "./payload.ts";
import { cursorProtocol } from "./protocol.ts";
import { contentKey, cursorPendingWrite, isCursorEditTool, pathKey } from "./tools.ts";

/** `{}` says nothing and changes nothing. */
const NOTHING: HookReply = { json: {} };

const EVENTS = new Set(["preToolUse", "postToolUse", "afterFileEdit"]);

/**
 * Cursor's translator. afterFileEdit and postToolUse of an edit tool both report one edit:
 * whichever comes first checks it. afterFileEdit's output reaches nobody, so what it found
 * waits in the inbox for postToolUse's `additional_context`.
 */
export const handleCursorHook = hookHandler<CursorHookInput>({
  agent: "cursor",
  protocol: cursorProtocol,
  nothing: NOTHING,
  parse: (stdin, options) => parseCursorInput(stdin, options.env.CURSOR_PROJECT_DIR || options.cwd),
  event(input): HookEvent | null {
    if (!EVENTS.has(input.event)) return null;
    const edits = isCursorEditTool(input.toolName);
    if (input.event === "preToolUse" && !edits) return null;
    const key = pathKey(input.toolInput);
    const toolPath = key === null ? undefined : (input.toolInput[key] as string);
    const at = {
      name: input.event,
      session: input.session,
      cwd: input.cwd,
      written: [input.filePath, toolPath],
    };
    if (input.event === "preToolUse") {
      const write = cursorPendingWrite(input.toolName, input.toolInput, input.session);
      return { ...at, kind: "pre-write", writes: write === null ? [] : [write] };
    }
    const after = input.event === "afterFileEdit";
    if (!after && !edits) return { ...at, kind: "post-tool" };
    const path = after ? input.filePath : toolPath;
    return {
      ...at,
      kind: "post-write",
      ...(path ? editSeen(input.cwd, path) : { edits: [] }),
      ...(after ? { unheard: true } : {}),
    };
  },
  gateReply: (input, _event, verdict) => gateReply(input, verdict),
  afterTool: (_event, answer) => {
    const text = reportText(answer);
    return text === "" ? NOTHING : { json: { additional_context: text } };
  },
  // Cursor's hooks cpilot installs have no prompt or stop events.
  context: () => null,
  stopReply: () => NOTHING,
  // afterFileEdit's output reaches nobody; postToolUse's `additional_context` the model.
  tell: (input) =>
    input.event === "postToolUse" ? (text) => ({ json: { additional_context: text } }) : null,
});

/** Named by path and content, so the two events that report one edit name it alike. */
function editSeen(cwd: string, path: string): { edits: WrittenFile[]; once: string } {
  const abs = isAbsolute(path) ? path : resolve(cwd, path);
  const state = hashRegularFile(abs) ?? "deleted";
  const once = `cursor-${sha1Hex(`${abs}\0${state}`).slice(0, 20)}`;
  return { edits: [{ path, kind: state === "deleted" ? "deleted" : "modified" }], once };
}

function gateReply(input: CursorHookInput, verdict: GateVerdict): HookReply {
  if (verdict.kind === "allow") return NOTHING;
  if (verdict.kind === "deny") {
    // Only the documented fields; the hint goes to stderr.
    return {
      json: { permission: "deny", agent_message: verdict.reason },
      ...(verdict.hint ? { stderr: `cpilot gate: ${verdict.reason}\nhint: ${verdict.hint}` } : {}),
    };
  }
  const change = verdict.changes[0];
  if (change === undefined) return NOTHING;
  const { decision } = change;
  const updated = updatedInput(input.toolInput, decision.path, decision.content);
  const note = modifiedNote(input.toolName, decision);
  if (updated === null) {
    return {
      json: {
        permission: "deny",
        agent_message: `A write-gate plugin wants this file written differently, and this edit cannot carry the whole file. Write the whole file instead. What the plugin changed:\n${decision.modified?.summary ?? ""}`,
      },
    };
  }
  return { json: { permission: "allow", updated_input: updated, agent_message: note } };
}

/** null when this tool cannot carry it. */
function updatedInput(
  input: Record<string, unknown>,
  path: string,
  content: string | undefined,
): Record<string, unknown> | null {
  const pk = pathKey(input) ?? "file_path";
  const next: Record<string, unknown> = { ...input, [pk]: path };
  if (content === undefined) return next;
  const ck = contentKey(input);
  if (ck !== null && ck !== "code_edit") return { ...next, [ck]: content };
  if (typeof input.old_string !== "string") return null;
  let current: string;
  try {
    current = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  if (current === "") return null;
  return { ...next, old_string: current, new_string: content, replace_all: false };
}
