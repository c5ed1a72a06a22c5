import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { takeNotices } from "../session/inbox.ts";
import type { Batcher } from "./batcher.ts";
import type { WriteContext } from "./perform-write.ts";
import type { Project } from "./project.ts";

/** What every tool handler gets: the project, the batcher, and how to answer. */
export interface ToolContext {
  readonly project: Project;
  readonly batcher: Batcher;
  readonly session: string;
  /** The client's name (e.g. "claude-code"), once it has said it. */
  agent(): string | undefined;
  /** The gate settings for a write, from the config as it is now. */
  writeContext(): Promise<WriteContext>;
  /** A tool result: waiting notices (background results) first, then `text`. */
  reply(text: string, isError?: boolean): CallToolResult;
}

/** Prepend the session's waiting notices to a result text. */
export function withNotices(root: string, session: string, text: string): string {
  const notices = takeNotices(root, session);
  if (notices.length === 0) return text;
  const shown = notices.map((n) => n.text.trimEnd()).join("\n\n");
  return `Notices since your last tool call:\n${shown}\n\n---\n${text}`;
}

/** Build the ToolContext for a project and batcher. */
export function createToolContext(options: {
  project: Project;
  batcher: Batcher;
  session: string;
  agent: () => string | undefined;
}): ToolContext {
  const { project, batcher, session, agent } = options;
  return {
    project,
    batcher,
    session,
    agent,
    writeContext: async () => {
      await project.load();
      const name = agent();
      return { root: project.root, gate: project.gateConfig(), agent: name ?? "mcp", session };
    },
    reply: (text, isError = false) => ({
      content: [{ type: "text", text: withNotices(project.root, session, text) }],
      ...(isError ? { isError: true } : {}),
    }),
  };
}
