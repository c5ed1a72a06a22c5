import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { postNotice } from "../../agent-session/inbox.ts";
import { claimOnce } from "../../agent-session/session-state.ts";
import type { ResolvedConfig } from "../../config/resolve.ts";
import { afterEdits, anyCallbackMatches, reportText } from "../../hook/after-edits.ts";
import { hookHandler } from "../../hook/call.ts";
import { gateEdit, modifiedNote } from "../../hook/edit-gate.ts";
import { pathInRoot } from "../../match/root-relative.ts";
import type { FileChange } from "../../model/batch.ts";
import type { HookEvent, HookReply } from "../../model/hook.ts";
import { sha1Hex } from "../../platform/digest.ts";
import { hashRegularFile } from "../../util/read-regular.ts";
import { type CursorHookInput, parseCursorInput } from "./payload.ts";
import { cursorProtocol } from "./protocol.ts";
import { contentKey, cursorPendingWrite, isCursorEditTool, pathKey } from "./tools.ts";

/** Cursor reads JSON on stdout; `{}` says nothing and changes nothing. */
const NOTHING: HookReply = { json: {} };

/** Cursor's events cpilot answers; anything else gets `{}`. */
const EVENTS = new Set(["preToolUse", "postToolUse", "afterFileEdit"]);

/**
 * Answer one Cursor hook call. preToolUse on an edit tool: the write gate (`permission`,
 * `agent_message`, `updated_input`). afterFileEdit (Cursor ignores its output): run the
 * callbacks and leave the result in the conversation's inbox. postToolUse: run the
 * callbacks for an edit no afterFileEdit handled yet, plus everything waiting in the
 * inbox, as `additional_context`. Each edit runs its callbacks once, whichever of the two
 * events comes first (keyed by the file's path and content). Exit 0, never throws.
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
    return {
      kind:
        input.event === "preToolUse"
          ? "pre-write"
          : input.event === "afterFileEdit" || edits
            ? "post-write"
            : "post-tool",
      name: input.event,
      session: input.session,
      cwd: input.cwd,
      written: [input.filePath, toolPath],
    };
  },
  answer: (input, _event, config) => {
    if (input.event === "preToolUse") return preToolUse(input, config);
    if (input.event === "afterFileEdit") return afterFileEdit(input, config);
    return postToolUse(input, config);
  },
  // afterFileEdit's output reaches nobody; postToolUse's `additional_context` the model.
  tell: (input) =>
    input.event === "postToolUse" ? (text) => ({ json: { additional_context: text } }) : null,
});

async function preToolUse(input: CursorHookInput, config: ResolvedConfig): Promise<HookReply> {
  const write = cursorPendingWrite(input.toolName, input.toolInput, input.session);
  if (write === null) return NOTHING;
  const decision = await gateEdit(cursorProtocol, config, write, input.cwd);
  if (decision.decision === "deny") {
    // Only the documented fields; the hint (which config key allows it) goes to stderr.
    return {
      json: { permission: "deny", agent_message: decision.reason },
      ...(decision.hint
        ? { stderr: `cpilot gate: ${decision.reason}\nhint: ${decision.hint}` }
        : {}),
    };
  }
  if (decision.modified === undefined) return NOTHING;
  const updated = updatedInput(input.toolInput, decision.path, decision.content);
  const note = modifiedNote(input.toolName, decision);
  if (updated === null) {
    return {
      json: {
        permission: "deny",
        agent_message: `A write-gate plugin wants this file written differently, and this edit cannot carry the whole file. Write the whole file instead. What the plugin changed:\n${decision.modified.summary}`,
      },
    };
  }
  return { json: { permission: "allow", updated_input: updated, agent_message: note } };
}

/** The tool input that writes what the gate decided, or null when this tool cannot carry it. */
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

async function afterFileEdit(input: CursorHookInput, config: ResolvedConfig): Promise<HookReply> {
  const change = input.filePath ? firstClaim(config.root, input, input.filePath) : null;
  if (change === null || !anyCallbackMatches(config, [change])) return NOTHING;
  const { handleEdits } = await import("../../hook/edits.ts");
  const { report } = await handleEdits({
    config,
    batch: {
      root: config.root,
      files: [change],
      origin: { surface: "hook", agent: "cursor", session: input.session },
    },
    session: input.session,
    extraEnv: { CP_AGENT: "cursor", CP_SESSION_ID: input.session },
  });
  const text = reportText(report);
  if (text !== "") {
    postNotice(config.root, input.session, {
      kind: "cursor-after-edit",
      text,
      failing: report.failures.length > 0,
    });
  }
  return NOTHING;
}

async function postToolUse(input: CursorHookInput, config: ResolvedConfig): Promise<HookReply> {
  const key = isCursorEditTool(input.toolName) ? pathKey(input.toolInput) : null;
  const path = key === null ? null : (input.toolInput[key] as string);
  const change = path === null ? null : firstClaim(config.root, input, path);
  const files = change === null ? [] : [change];
  const report = await afterEdits({ config, agent: "cursor", session: input.session, files });
  const text = reportText(report);
  return text === "" ? NOTHING : { json: { additional_context: text } };
}

/**
 * The edit as a batch change if this hook call is the first to see this file in this
 * state (afterFileEdit and postToolUse both report one edit), else null.
 */
function firstClaim(root: string, input: CursorHookInput, path: string): FileChange | null {
  const rel = pathInRoot(root, input.cwd, path);
  if (rel === null) return null;
  // gone (or not a regular file): a delete
  const state = hashRegularFile(isAbsolute(path) ? path : resolve(input.cwd, path)) ?? "deleted";
  const key = sha1Hex(`${rel}\0${state}`).slice(0, 20);
  if (!claimOnce(root, input.session, `cursor-edit-${key}`)) return null;
  return { path: rel, kind: state === "deleted" ? "deleted" : "modified" };
}
