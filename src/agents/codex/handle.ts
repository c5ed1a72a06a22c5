import { relative } from "node:path";
import type { ResolvedConfig } from "../../config/resolve.ts";
import { afterEdits, reportText } from "../../hook/after-edits.ts";
import { hookHandler, type Parsed } from "../../hook/call.ts";
import { modifiedNote } from "../../hook/edit-gate.ts";
import { gateAll } from "../../hook/gate-all.ts";
import { PATCH_NOT_REWRITABLE } from "../../hook/messages.ts";
import type { ShellCall } from "../../hook/shell-check.ts";
import { EMPTY_REPLY, type HookEvent, type HookReply } from "../../model/hook.ts";
import type { AgentReport } from "../../ui/agent/render-outcome.ts";
import { patchChanges, patchPath, patchWrites } from "../kit/patch/patch-files.ts";
import { decisionBlockStop } from "../kit/stop-reply.ts";
import { CODEX_SHELL_TOOL, type CodexPatchCall, codexPatchCall, rewriteAddFile } from "./patch.ts";
import { type CodexHookInput, parseCodexInput } from "./payload.ts";
import { codexProtocol } from "./protocol.ts";

/** A Codex hook call: its payload, and the patch its tool call writes through. */
interface CodexCall {
  readonly input: CodexHookInput;
  readonly patch: CodexPatchCall;
}

const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse"]);

/** The payload read, with the patch of a tool event read too (the gate needs its files). */
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
 * A tool call that writes through a patch, before or after it runs; null for anything else.
 * A patch cpilot cannot read is a write the gate must refuse, but only before it runs:
 * afterwards there is nothing cpilot can say about its files.
 */
function codexEvent({ input, patch }: CodexCall): HookEvent | null {
  const at = { name: input.event, session: input.session, cwd: input.cwd, written: [] };
  if (input.event === "Stop" || input.event === "SubagentStop") return { ...at, kind: "stop" };
  // each prompt starts a turn: the project's files are recorded (see ../../hook/shell-check.ts)
  if (input.event === "UserPromptSubmit" || input.event === "SessionStart")
    return { ...at, kind: "prompt" };
  const pre = input.event === "PreToolUse";
  const shell = !pre && input.event === "PostToolUse" && input.toolName === CODEX_SHELL_TOOL;
  // after a shell command that was not a patch: what it changed, found by comparing
  if (shell && (patch.kind !== "patch" || patch.files.length === 0))
    return { ...at, kind: "post-tool" };
  if (!TOOL_EVENTS.has(input.event) || patch.kind === "none") return null;
  if (patch.kind === "unreadable" && !pre) return null;
  if (patch.kind === "patch" && patch.files.length === 0) return null;
  return {
    kind: pre ? "pre-write" : "post-write",
    name: input.event,
    session: input.session,
    cwd: input.cwd,
    written: patch.kind === "patch" ? patch.files.flatMap((f) => [f.path, f.moveTo]) : [],
  };
}

/**
 * Answer one Codex CLI hook call on `apply_patch`, or on its shell tool (`Bash`), which
 * Codex applies a heredoc patch from (patch.ts). PreToolUse: the write gate for every
 * file of the patch (deny → `permissionDecision: "deny"`; a plugin's change to an added
 * file → `updatedInput` with the rewritten patch). PostToolUse: the callbacks' report,
 * failures included, as `additionalContext`, which Codex adds beside the tool's own output.
 * PostToolUse on the shell tool: what the command changed since the turn started
 * (UserPromptSubmit) or the last look, checked like an edit; a protected file changed
 * holds the stop. Stop: the stop gate. Only fields Codex's output schema documents are printed (it rejects
 * unknown ones).
 */
export const handleCodexHook = hookHandler<CodexCall>({
  agent: "codex",
  protocol: codexProtocol,
  nothing: EMPTY_REPLY,
  parse: (stdin, options) => parseCodexCall(stdin, options.cwd),
  event: codexEvent,
  answer: async ({ input, patch }, event, config) => {
    const shell: ShellCall = { config, agent: "codex", session: input.session };
    const steps = () => import("../../hook/shell-check.ts");
    if (event.kind === "stop") {
      // a subagent's stop is held with its own count of held stops
      const stopper =
        input.event === "SubagentStop" ? { stopper: input.agentId ?? "unknown-subagent" } : {};
      return decisionBlockStop(await (await steps()).shellStopGate({ ...shell, ...stopper }));
    }
    if (event.kind === "prompt") {
      if (input.event === "UserPromptSubmit") await (await steps()).shellTurnStarts(shell);
      return (await import("./session-context.ts")).codexSessionContext(input, config);
    }
    if (event.kind === "post-tool") return replyWith(await (await steps()).shellEditsReport(shell));
    // Only a PreToolUse gets here with a patch cpilot cannot read (see codexEvent).
    if (patch.kind === "unreadable") return permission("deny", patch.reason);
    if (patch.kind === "none") return EMPTY_REPLY;
    return input.event === "PreToolUse"
      ? preToolUse(input, config, patch)
      : postToolUse(input, shell, patch);
  },
  // a config error is told in a tool's result; a stop has no channel for it (stderr only)
  tell: (_call, event) => (event.kind === "stop" ? null : contextReply),
});

type Patch = CodexPatchCall & { kind: "patch" };

async function preToolUse(
  input: CodexHookInput,
  config: ResolvedConfig,
  call: Patch,
): Promise<HookReply> {
  const { files, cwd } = call;
  const verdict = await gateAll(
    codexProtocol,
    config,
    patchWrites(files, { tool: "apply_patch", agent: "codex", session: input.session }, cwd),
  );
  if (verdict.kind === "allow") return EMPTY_REPLY;
  if (verdict.kind === "deny") return permission("deny", verdict.reason);
  let patch: string | null = call.text;
  const notes: string[] = [];
  for (const { write, decision } of verdict.changes) {
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

async function postToolUse(
  input: CodexHookInput,
  shell: ShellCall,
  call: Patch,
): Promise<HookReply> {
  const { config } = shell;
  const changes = patchChanges(config.root, call.cwd, call.files);
  const report = await afterEdits({
    config,
    agent: "codex",
    session: input.session,
    files: changes,
  });
  const steps = await import("../../hook/shell-check.ts");
  // a patch sent through the shell may come with other commands that changed files
  if (input.toolName === CODEX_SHELL_TOOL) {
    const more = await steps.shellEditsReport(shell);
    report.failures.unshift(...more.failures);
    report.info.unshift(...more.info);
  }
  return replyWith(report);
}

/**
 * A report as `additionalContext`. Never `decision: "block"` after a tool: Codex then hands
 * the model the reason INSTEAD of the tool's output ("Success. Updated the following
 * files: …"); additionalContext goes beside it.
 */
function replyWith(report: AgentReport): HookReply {
  const text = reportText(report);
  return text === "" ? EMPTY_REPLY : contextReply(text);
}

function contextReply(text: string): HookReply {
  return {
    json: { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: text } },
  };
}
