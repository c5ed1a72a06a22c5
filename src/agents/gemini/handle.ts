import { claimOnce } from "../../agent-session/session-state.ts";
import { agentSettings } from "../../config/agent-settings.ts";
import type { ResolvedConfig } from "../../config/resolve.ts";
import { postNotice } from "../../session/inbox.ts";
import { takeDelivery } from "../../session/notices.ts";
import { renderCallbacksPanel } from "../../ui/agent/callbacks-panel.ts";
import { afterEdits, reportText } from "../kit/after-edits.ts";
import { gateEdit, gateFailedReason, modifiedNote } from "../kit/edit-gate.ts";
import { configErrorForModel, emptyConfig, loadHookConfig } from "../kit/hook-config.ts";
import { EMPTY_REPLY, type HookReply } from "../kit/hook-reply.ts";
import { pathInRoot } from "../kit/root-path.ts";
import { unreadableInputReply } from "../kit/unreadable-input.ts";
import { type GeminiHookInput, parseGeminiInput } from "./payload.ts";
import { geminiProtocol } from "./protocol.ts";
import {
  geminiChangeKind,
  geminiEditedPath,
  geminiPendingWrite,
  geminiToolFailed,
  geminiUpdatedInput,
  isGeminiEditTool,
} from "./tools.ts";

/**
 * Answer one Gemini CLI hook call. BeforeTool on write_file/replace: the write gate (deny →
 * `decision: "deny"`, which the CLI turns into the tool's error; modify →
 * `hookSpecificOutput.tool_input`). AfterTool: the callbacks, their results as
 * `additionalContext` appended to the tool result. Always exit 0 with JSON or nothing on
 * stdout; never throws.
 */
export async function handleGeminiHook(
  stdin: string,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<HookReply> {
  const parsed = parseGeminiInput(stdin, options.env.GEMINI_PROJECT_DIR || options.cwd);
  if (!parsed.ok) return unreadableInputReply(geminiProtocol, stdin, parsed.error);
  const { input } = parsed;
  if (input.event === "BeforeAgent") return beforeAgent(input);
  if (input.event !== "BeforeTool" && input.event !== "AfterTool") return EMPTY_REPLY;
  if (!isGeminiEditTool(input.toolName)) return EMPTY_REPLY;
  const loaded = await loadHookConfig(input.cwd);
  if (loaded.kind === "none") return EMPTY_REPLY;
  try {
    if (loaded.kind === "error") {
      const stderr = `cpilot: ${loaded.message}`;
      if (input.event === "BeforeTool")
        return {
          ...(await beforeTool(input, await emptyConfig(loaded.root, loaded.message))),
          stderr,
        };
      const text = configErrorForModel(loaded.root, input.session, loaded.message);
      return { ...(text === null ? EMPTY_REPLY : afterToolReply(text)), stderr };
    }
    return input.event === "BeforeTool"
      ? await beforeTool(input, loaded.config)
      : await afterTool(input, loaded.config);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const stderr = `cpilot: internal error in the ${input.event} hook (please report it): ${message}`;
    if (input.event === "BeforeTool") return { ...denyReply(gateFailedReason(message)), stderr };
    return { json: null, stderr };
  }
}

async function beforeTool(input: GeminiHookInput, config: ResolvedConfig): Promise<HookReply> {
  const path = geminiEditedPath(input.toolInput);
  if (path === null) return EMPTY_REPLY;
  const write = geminiPendingWrite(input.toolName, path, input.toolInput, input.session);
  const decision = await gateEdit(geminiProtocol, config, write);
  if (decision.decision === "deny") return denyReply(decision.reason, decision.hint);
  if (decision.modified === undefined) return EMPTY_REPLY;
  const updated = geminiUpdatedInput(input.toolName, decision);
  if (updated === null) {
    return denyReply(
      `A write-gate plugin wants this file written differently, but the file is missing or empty, so a replace cannot carry it. Use write_file with the whole file instead. What the plugin changed:\n${decision.modified.summary}`,
    );
  }
  // BeforeTool has no channel to the model: the note comes with this call's AfterTool.
  const note = modifiedNote(input.toolName, decision);
  postNotice(config.root, input.session, { kind: "gate-modified", text: note });
  return {
    json: {
      hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: updated },
      systemMessage: `cpilot gate: ${decision.modified.summary}`,
    },
  };
}

function denyReply(reason: string, hint?: string): HookReply {
  return {
    json: {
      decision: "deny",
      reason,
      ...(hint ? { systemMessage: `cpilot gate: ${reason}\nhint: ${hint}` } : {}),
    },
  };
}

async function afterTool(input: GeminiHookInput, config: ResolvedConfig): Promise<HookReply> {
  const path = geminiEditedPath(input.toolInput);
  const rel = path === null ? null : pathInRoot(config.root, input.cwd, path);
  const changed = rel !== null && !geminiToolFailed(input.toolResponse);
  const files = changed ? [{ path: rel, kind: geminiChangeKind(input.toolResponse) }] : [];
  const report = await afterEdits({ config, agent: "gemini", session: input.session, files });
  const text = reportText(report);
  return text === "" ? EMPTY_REPLY : afterToolReply(text);
}

/**
 * BeforeAgent (each prompt): once per session the table of active callbacks, and every
 * time the results that waited in the inbox (background runs that finished after the
 * last edit), added to the prompt as context.
 */
async function beforeAgent(input: GeminiHookInput): Promise<HookReply> {
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
  if (parts.length === 0) return EMPTY_REPLY;
  return {
    json: {
      hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: parts.join("\n\n") },
    },
  };
}

function afterToolReply(text: string): HookReply {
  return { json: { hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: text } } };
}
