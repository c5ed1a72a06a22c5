import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { takeNotices } from "../agent-session/inbox.ts";
import type { Batcher } from "./batcher.ts";
import { keepAlive, type ToolExtra } from "./keep-alive.ts";
import { performWrite, type WriteContext, type WriteRequest } from "./perform-write.ts";
import type { Project } from "./project.ts";
import type { SessionPause } from "./session-pause.ts";

export interface ToolContext {
  readonly project: Project;
  readonly batcher: Batcher;
  readonly session: string;
  /** What the agent paused for this session (callback_toggle). */
  readonly paused: SessionPause;
  /** The client's name (e.g. "claude-code"), once it has said it. */
  agent(): string | undefined;
  /** From the config as it is now. */
  writeContext(): Promise<WriteContext>;
  /** Waiting notices (background results) first. */
  reply(text: string, isError?: boolean): CallToolResult;
  /** Written in order, answered when its batch's callbacks are done. */
  edit(request: WriteRequest, extra: ToolExtra): Promise<CallToolResult>;
}

export function withNotices(root: string, session: string, text: string): string {
  const notices = takeNotices(root, session);
  if (notices.length === 0) return text;
  const shown = notices.map((n) => n.text.trimEnd()).join("\n\n");
  return `Notices since your last tool call:\n${shown}\n\n---\n${text}`;
}

export function createToolContext(options: {
  project: Project;
  batcher: Batcher;
  session: string;
  paused: SessionPause;
  agent: () => string | undefined;
  /** 0: none. */
  progressMs: number;
}): ToolContext {
  const { project, batcher, session, paused, agent } = options;
  const writeContext = async (): Promise<WriteContext> => {
    const state = await project.load();
    const name = agent();
    return {
      root: project.root,
      gate: project.gateConfig(),
      agent: name ?? "mcp",
      session,
      ...(state.kind === "broken" && state.unloaded ? { unloaded: state.error } : {}),
    };
  };
  const reply = (text: string, isError = false): CallToolResult => ({
    content: [{ type: "text", text: withNotices(project.root, session, text) }],
    ...(isError ? { isError: true } : {}),
  });
  return {
    project,
    batcher,
    session,
    paused,
    agent,
    writeContext,
    reply,
    edit: async (request, extra) => {
      const work = batcher.submit(async () => performWrite(request, await writeContext()));
      const end = await keepAlive(extra, work, options.progressMs);
      if ("refused" in end) return reply(end.refused, true);
      const result = reply(end.text);
      return end.structured ? { ...result, structuredContent: end.structured } : result;
    },
  };
}
