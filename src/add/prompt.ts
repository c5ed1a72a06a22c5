import type { ProjectContext } from "./context.ts";
import { TOOL_NAME } from "./schema.ts";

/** Provider-neutral; each client turns it into its API's body. */
export interface ModelRequest {
  readonly system: string;
  readonly user: string;
}

export const SYSTEM_PROMPT = `You turn a developer's plain-words request into one cpilot callback.
cpilot runs a callback's command whenever an AI coding agent edits files that match the callback's patterns, and shows the command's output (errors) to the agent.
Answer only by calling the ${TOOL_NAME} tool, once.

Rules:
- run: use the command the request names. Do not invent tools the request and the project do not point to.
- Whole-project checks (cargo check, tsc --noEmit, go vet ./..., pytest) are a bash string with overlap "replace".
- Tools that take file names (formatters, linters) are an argv array with "{files}" as its own element, e.g. ["ruff", "check", "{files}"].
- For Node tools installed in the project use "npx --no-install <tool>".
- pattern: gitignore-style rules relative to the project root: "*.rs" (any depth), "src/**/*.ts" (under src/), "Cargo.toml".
- blocking: true unless the request says background / don't wait. timeout: seconds, generous for the tool (check 120-300, tests 600, formatters 60), or what the request says.
- per: "file" only when the request says each file / one file at a time; then use "{file}" instead of "{files}".
- name: a short slug not among the existing callback names.
- description: one short line.
- successMessage only when the request asks for a message on success ("silent" for none).`;

function line(label: string, items: readonly string[], more = false): string {
  const list = items.length === 0 ? "(none)" : items.join(", ");
  return `- ${label}: ${list}${more ? ", …" : ""}`;
}

/** The request and what the project looks like (names only). */
export function buildRequest(words: string, context: ProjectContext): ModelRequest {
  const user = [
    `Request: ${words}`,
    "",
    "Project (root folder):",
    line("toolchain files", context.toolchainFiles),
    line("package.json scripts", context.scripts),
    line("Makefile targets", context.makeTargets),
    line("existing callback names (taken)", context.callbackNames),
    line("top-level entries", context.topLevel, context.truncated),
  ].join("\n");
  return { system: SYSTEM_PROMPT, user };
}

/** The first request again, the rejected reply and every problem with it, so the model fixes exactly those. */
export function buildRetry(
  first: ModelRequest,
  rejected: unknown,
  problems: readonly string[],
): ModelRequest {
  let shown: string;
  try {
    shown = JSON.stringify(rejected) ?? String(rejected);
  } catch {
    shown = String(rejected);
  }
  if (shown.length > 4000) shown = `${shown.slice(0, 4000)}…`;
  const user = `${first.user}

Your previous answer was rejected:
${shown}

Problems:
${problems.map((p) => `- ${p}`).join("\n")}

Call ${TOOL_NAME} again with a callback that fixes every problem above.`;
  return { system: first.system, user };
}
