import { relative } from "node:path";
import { reportText } from "../../hook/after-edits.ts";
import { hookHandler, type Parsed } from "../../hook/call.ts";
import { modifiedNote } from "../../hook/edit-gate.ts";
import { shellCommand } from "../../hook/hook-input.ts";
import { PATCH_NOT_REWRITABLE } from "../../hook/messages.ts";
import type { GateDecision, PendingWrite } from "../../model/gate-types.ts";
import { EMPTY_REPLY, type HookAnswer, type HookEvent, type HookReply } from "../../model/hook.ts";
import { patchEdits, patchPath, patchWrites } from "../kit/patch/patch-files.ts";
import { decisionBlockStop } from "../kit/stop-reply.ts";
import { CODEX_SHELL_TOOL, type CodexPatchCall, codexPatchCall, rewriteAddFile } from "./patch.ts";
import { type CodexHookInput, parseCodexInput } from "./payload.ts";
import { codexProtocol } from "./protocol.ts";

interface CodexCall {
  readonly input: CodexHookInput;
  readonly patch: CodexPatchCall;
}

const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse"]);

/** The gate needs the patch's files. */
function parseCodexCall(stdin: string, cwd: string): Parsed<CodexCall> {
  const parsed = parseCodexInput(stdin, cwd);
  if (!parsed.ok) return parsed;
  const { input } = parsed;
  const patch: CodexPatchCall = TOOL_EVENTS.has(input.event)
    ? codexPatchCall(input.toolName, input.toolInput, input.cwd)
    : { kind: "none" };
  return { ok: true, input: { input, patch } };
}

/**
 * A patch's writes before it runs, or what it wrote after; what a shell command changed;
 * a stop; a session start or a prompt (a turn starts). A patch cpilot cannot read is
 * refused before it runs; afterwards there is nothing to say about its files.
 */
function codexEvent({ input, patch }: CodexCall): HookEvent | null {
  const at = { name: input.event, session: input.session, cwd: input.cwd, written: [] };
  if (input.event === "Stop") return { ...at, kind: "stop" };
  if (input.event === "SubagentStop")
    return { ...at, kind: "stop", stopper: input.agentId ?? "unknown-subagent" };
  if (input.event === "SessionStart")
    return { ...at, kind: "session-start", ...(input.source ? { source: input.source } : {}) };
  if (input.event === "UserPromptSubmit") return { ...at, kind: "prompt", turn: {} };
  const pre = input.event === "PreToolUse";
  const shell = input.event === "PostToolUse" && input.toolName === CODEX_SHELL_TOOL;
  const command = shell ? shellCommand(input.toolInput) : undefined;
  const said = command === undefined ? {} : { command };
  if (shell && (patch.kind !== "patch" || patch.files.length === 0))
    return { ...at, kind: "post-tool", shell: true, ...said };
  if (!TOOL_EVENTS.has(input.event) || patch.kind === "none") return null;
  if (patch.kind === "unreadable")
    return pre ? { ...at, kind: "pre-write", refused: patch.reason } : null;
  if (patch.files.length === 0) return null;
  const written = patch.files.flatMap((f) => [f.path, f.moveTo]);
  if (pre) {
    const tool = { tool: "apply_patch", agent: "codex", session: input.session };
    return { ...at, kind: "pre-write", written, writes: patchWrites(patch.files, tool, patch.cwd) };
  }
  const edits = patchEdits(patch.cwd, patch.files);
  return { ...at, kind: "post-write", written, edits, ...(shell ? { shell, ...said } : {}) };
}

/**
 * Codex CLI's translator, on `apply_patch` or its shell tool (which applies heredoc
 * patches itself). Only fields Codex's output schema documents are printed: it rejects
 * unknown ones.
 */
export const handleCodexHook = hookHandler<CodexCall>({
  agent: "codex",
  protocol: codexProtocol,
  nothing: EMPTY_REPLY,
  parse: (stdin, options) => parseCodexCall(stdin, options.cwd),
  event: codexEvent,
  gateReply: ({ input, patch }, _event, verdict) => {
    if (verdict.kind === "allow") return EMPTY_REPLY;
    if (verdict.kind === "deny" || patch.kind !== "patch") {
      return permission("deny", verdict.kind === "deny" ? verdict.reason : PATCH_NOT_REWRITABLE);
    }
    return rewrittenPatch(input, patch, verdict.changes);
  },
  afterTool: (_event, answer) => replyWith(answer),
  // Codex adds SessionStart's and UserPromptSubmit's `additionalContext` to the model's next
  // request.
  context: (event) => (text) => ({
    json: { hookSpecificOutput: { hookEventName: event.name, additionalContext: text } },
  }),
  stopReply: (_event, verdict) => decisionBlockStop(verdict),
  // a stop has no channel for a config error (stderr only)
  tell: (_call, event) => (event.kind === "stop" ? null : contextReply),
});

type Patch = CodexPatchCall & { kind: "patch" };

function rewrittenPatch(
  input: CodexHookInput,
  call: Patch,
  changes: readonly { write: PendingWrite; decision: GateDecision }[],
): HookReply {
  const { files, cwd } = call;
  let patch: string | null = call.text;
  const notes: string[] = [];
  for (const { write, decision } of changes) {
    const file = files.find((f) => f.op === "add" && patchPath(cwd, f.path) === write.path);
    if (file === undefined || call.viaShell) {
      return permission(
        "deny",
        `A write-gate plugin wants ${write.path} written differently, and only a whole new file (*** Add File) can be rewritten in a patch. Write the whole file with *** Add File after deleting it, or follow this:\n${decision.modified?.summary ?? "(no summary)"}`,
      );
    }
    // the patch is applied in the agent's folder: name the target from there
    const target = relative(cwd, decision.path) || decision.path;
    patch =
      patch === null
        ? null
        : rewriteAddFile(patch, file.path, { path: target, content: decision.content });
    notes.push(modifiedNote("apply_patch", decision));
  }
  if (patch === null) return permission("deny", PATCH_NOT_REWRITABLE);
  return {
    json: {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        permissionDecisionReason: notes.join("\n"),
        updatedInput: { ...input.toolInput, command: patch },
        additionalContext: notes.join("\n"),
      },
    },
  };
}

function permission(decision: "deny", reason: string): HookReply {
  return {
    json: {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: decision,
        permissionDecisionReason: reason,
      },
    },
  };
}

/** Never "block" after a tool: Codex would hand the model the reason instead of the tool's output. */
function replyWith(report: HookAnswer): HookReply {
  const text = reportText(report);
  return text === "" ? EMPTY_REPLY : contextReply(text);
}

function contextReply(text: string): HookReply {
  return {
    json: { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: text } },
  };
}
