import { claimOnce } from "../../agent-session/session-state.ts";
import { agentSettings } from "../../config/agent-settings.ts";
import type { ResolvedConfig } from "../../config/resolve.ts";
import { takeDelivery } from "../../session/notices.ts";
import { renderCallbacksPanel } from "../../ui/agent/callbacks-panel.ts";
import { afterEdits, reportText } from "../kit/after-edits.ts";
import { gateEdit, gateFailedReason } from "../kit/edit-gate.ts";
import { configErrorForModel, emptyConfig, loadHookConfig } from "../kit/hook-config.ts";
import { EMPTY_REPLY, type HookReply } from "../kit/hook-reply.ts";
import { pathInRoot } from "../kit/root-path.ts";
import { unreadableInputReply } from "../kit/unreadable-input.ts";
import { parseQwenInput, type QwenHookInput } from "./payload.ts";
import { qwenProtocol } from "./protocol.ts";
import {
  isQwenEditTool,
  qwenChangeKind,
  qwenEditedPath,
  qwenPendingWrite,
  qwenToolFailed,
} from "./tools.ts";

/**
 * Answer one Qwen Code hook call, in the channels 0.24.4 was seen to hand the model:
 * PreToolUse on write_file/edit is the write gate (a deny's reason becomes the tool's
 * result); PostToolUse runs the callbacks and answers with `additionalContext`, appended to
 * the tool's output (`decision: "block"` / `reason` are ignored there); SessionStart brings
 * the callbacks table and UserPromptSubmit (fired for each prompt and after each tool
 * round) the results that waited. Qwen ignores `updatedInput` (and a PreToolUse
 * `additionalContext` beside an allow; both seen), so a plugin's rewrite is a deny that says
 * what to write. Never throws.
 */
export async function handleQwenHook(
  stdin: string,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<HookReply> {
  const parsed = parseQwenInput(stdin, options.cwd);
  if (!parsed.ok) return unreadableInputReply(qwenProtocol, stdin, parsed.error);
  const { input } = parsed;
  if (input.event === "SessionStart" || input.event === "UserPromptSubmit")
    return promptContext(input);
  if (input.event !== "PreToolUse" && input.event !== "PostToolUse") return EMPTY_REPLY;
  if (!isQwenEditTool(input.toolName)) return EMPTY_REPLY;
  const loaded = await loadHookConfig(input.cwd);
  if (loaded.kind === "none") return EMPTY_REPLY;
  try {
    if (loaded.kind === "error") {
      const stderr = `cpilot: ${loaded.message}`;
      if (input.event === "PreToolUse")
        return {
          ...(await preToolUse(input, await emptyConfig(loaded.root, loaded.message))),
          stderr,
        };
      const text = configErrorForModel(loaded.root, input.session, loaded.message);
      return { ...(text === null ? EMPTY_REPLY : contextReply("PostToolUse", text)), stderr };
    }
    return input.event === "PreToolUse"
      ? await preToolUse(input, loaded.config)
      : await postToolUse(input, loaded.config);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const stderr = `cpilot: internal error in the ${input.event} hook (please report it): ${message}`;
    if (input.event === "PreToolUse")
      return { json: qwenProtocol.denyForm(gateFailedReason(message)), stderr };
    return { json: null, stderr };
  }
}

async function preToolUse(input: QwenHookInput, config: ResolvedConfig): Promise<HookReply> {
  const path = qwenEditedPath(input.toolInput);
  if (path === null) return EMPTY_REPLY;
  const write = qwenPendingWrite(input.toolName, path, input.toolInput, input.session);
  const decision = await gateEdit(qwenProtocol, config, write);
  if (decision.decision === "deny") return { json: qwenProtocol.denyForm(decision.reason) };
  if (decision.modified === undefined) return EMPTY_REPLY;
  const content =
    decision.content === undefined
      ? ""
      : `\nWrite the file ${decision.path} with exactly this content instead:\n${decision.content}`;
  return {
    json: qwenProtocol.denyForm(
      `cpilot's write gate wants this write changed, so it did not run. What the plugin changed:\n${decision.modified.summary}${content}`,
    ),
  };
}

async function postToolUse(input: QwenHookInput, config: ResolvedConfig): Promise<HookReply> {
  const path = qwenEditedPath(input.toolInput);
  const rel = path === null ? null : pathInRoot(config.root, input.cwd, path);
  const changed = rel !== null && !qwenToolFailed(input.toolResponse);
  const files = changed ? [{ path: rel, kind: qwenChangeKind(input.toolResponse) }] : [];
  const report = await afterEdits({ config, agent: "qwen", session: input.session, files });
  const text = reportText(report);
  return text === "" ? EMPTY_REPLY : contextReply("PostToolUse", text);
}

async function promptContext(input: QwenHookInput): Promise<HookReply> {
  const loaded = await loadHookConfig(input.cwd);
  if (loaded.kind !== "ok") return EMPTY_REPLY;
  const { config } = loaded;
  const parts: string[] = [];
  if (agentSettings(config.source.agent).announceCallbacks) {
    const panel = renderCallbacksPanel(config);
    if (panel !== null && claimOnce(config.root, input.session, "announce")) parts.push(panel);
  }
  const waiting = takeDelivery(config.root, input.session);
  parts.push(...waiting.failing, ...waiting.info);
  return parts.length === 0 ? EMPTY_REPLY : contextReply(input.event, parts.join("\n\n"));
}

function contextReply(event: string, text: string): HookReply {
  return { json: { hookSpecificOutput: { hookEventName: event, additionalContext: text } } };
}
