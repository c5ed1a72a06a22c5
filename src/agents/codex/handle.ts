import { relative } from "node:path";
import type { ResolvedConfig } from "../../config/resolve.ts";
import { afterEdits, reportText } from "../../hook/after-edits.ts";
import { configErrorForModel, emptyConfig, loadHookConfig } from "../../hook/config.ts";
import { gateFailedReason, modifiedNote } from "../../hook/edit-gate.ts";
import { gateAll } from "../../hook/gate-all.ts";
import { PATCH_NOT_REWRITABLE } from "../../hook/messages.ts";
import { unreadableInputReply } from "../../hook/unreadable-input.ts";
import { EMPTY_REPLY, type HookReply } from "../../model/hook.ts";
import { patchChanges, patchPath, patchWrites } from "../kit/patch/patch-files.ts";
import { decisionBlockStop } from "../kit/stop-reply.ts";
import { type CodexPatchCall, codexPatchCall, rewriteAddFile } from "./patch.ts";
import { type CodexHookInput, parseCodexInput } from "./payload.ts";
import { codexProtocol } from "./protocol.ts";

/**
 * Answer one Codex CLI hook call on `apply_patch`, or on its shell tool (`Bash`), which
 * Codex applies a heredoc patch from (patch.ts). PreToolUse: the write gate for every
 * file of the patch (deny → `permissionDecision: "deny"`; a plugin's change to an added
 * file → `updatedInput` with the rewritten patch). PostToolUse: the callbacks' report, failures included, as
 * `additionalContext`, which Codex adds beside the tool's own output. Stop: the stop gate.
 * Only fields Codex's
 * output schema documents are printed (it rejects unknown ones). Exit 0, never throws.
 */
export async function handleCodexHook(
  stdin: string,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<HookReply> {
  const parsed = parseCodexInput(stdin, options.cwd);
  if (!parsed.ok) return unreadableInputReply(codexProtocol, stdin, parsed.error);
  const { input } = parsed;
  if (input.event === "Stop") return codexStop(input);
  if (input.event !== "PreToolUse" && input.event !== "PostToolUse") return EMPTY_REPLY;
  const call = codexPatchCall(input.toolName, input.toolInput, input.cwd);
  if (call.kind === "none" || (call.kind === "patch" && call.files.length === 0))
    return EMPTY_REPLY;
  const loaded = await loadHookConfig(
    input.cwd,
    call.kind === "patch" ? call.files.flatMap((f) => [f.path, f.moveTo]) : [],
  );
  if (loaded.kind === "none") return EMPTY_REPLY;
  if (call.kind === "unreadable")
    return input.event === "PreToolUse" ? permission("deny", call.reason) : EMPTY_REPLY;
  try {
    if (loaded.kind === "error") {
      const stderr = `cpilot: ${loaded.message}`;
      if (input.event === "PreToolUse")
        return {
          ...(await preToolUse(input, await emptyConfig(loaded), call)),
          stderr,
        };
      const note = configErrorForModel(loaded.root, input.session, loaded.message);
      return { ...(note === null ? EMPTY_REPLY : contextReply(note)), stderr };
    }
    return input.event === "PreToolUse"
      ? await preToolUse(input, loaded.config, call)
      : await postToolUse(input, loaded.config, call);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const stderr = `cpilot: internal error in the ${input.event} hook (please report it): ${message}`;
    if (input.event === "PreToolUse") {
      return { ...permission("deny", gateFailedReason(message)), stderr };
    }
    return { json: null, stderr };
  }
}

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
  config: ResolvedConfig,
  call: Patch,
): Promise<HookReply> {
  const changes = patchChanges(config.root, call.cwd, call.files);
  const report = await afterEdits({
    config,
    agent: "codex",
    session: input.session,
    files: changes,
  });
  const text = reportText(report);
  // Never `decision: "block"` here: Codex then hands the model the reason INSTEAD of the
  // tool's output ("Success. Updated the following files: …"); additionalContext goes beside it.
  if (text === "") return EMPTY_REPLY;
  return contextReply(text);
}

/**
 * Stop: the pipeline's stop gate; `decision: "block"` makes Codex go on with the reason as
 * the model's next prompt. A config that does not load never holds the stop.
 */
async function codexStop(input: CodexHookInput): Promise<HookReply> {
  const loaded = await loadHookConfig(input.cwd, []);
  if (loaded.kind === "none") return EMPTY_REPLY;
  if (loaded.kind === "error") return { json: null, stderr: `cpilot: ${loaded.message}` };
  try {
    const { stopGate } = await import("../../hook/stop-gate.ts");
    const verdict = await stopGate({
      config: loaded.config,
      agent: "codex",
      session: input.session,
    });
    return decisionBlockStop(verdict);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      json: null,
      stderr: `cpilot: internal error in the Stop hook (please report it): ${message}`,
    };
  }
}

function contextReply(text: string): HookReply {
  return {
    json: { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: text } },
  };
}
