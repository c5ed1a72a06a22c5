import { postJson } from "./_http.ts";
import { ModelError } from "./model-error.ts";
import type { ModelRequest } from "./prompt.ts";
import type { ProviderConfig } from "./provider.ts";
import { CALLBACK_JSON_SCHEMA, TOOL_DESCRIPTION, TOOL_NAME } from "./schema.ts";

/** One forced tool call carrying the callback. */
export function anthropicBody(config: ProviderConfig, request: ModelRequest): unknown {
  return {
    model: config.model,
    max_tokens: 1024,
    system: request.system,
    messages: [{ role: "user", content: request.user }],
    tools: [{ name: TOOL_NAME, description: TOOL_DESCRIPTION, input_schema: CALLBACK_JSON_SCHEMA }],
    tool_choice: { type: "tool", name: TOOL_NAME },
  };
}

/** `POST {baseUrl}/v1/messages`; returns the forced tool call's input, not yet validated. */
export async function askAnthropic(
  config: ProviderConfig,
  request: ModelRequest,
  signal?: AbortSignal,
): Promise<unknown> {
  const answer = await postJson(
    `${config.baseUrl}/v1/messages`,
    { "x-api-key": config.apiKey, "anthropic-version": "2023-06-01" },
    anthropicBody(config, request),
    config.timeoutMs,
    signal,
  );
  const content = (answer as { content?: unknown })?.content;
  if (!Array.isArray(content)) {
    throw new ModelError("transport", "the answer has no content (not a Messages API reply)");
  }
  const call = content.find(
    (b) =>
      (b as { type?: unknown })?.type === "tool_use" &&
      (b as { name?: unknown }).name === TOOL_NAME,
  ) as { input?: unknown } | undefined;
  if (call === undefined) {
    const text = content
      .map((b) => (b as { text?: unknown })?.text)
      .filter((t) => typeof t === "string")
      .join(" ");
    throw new ModelError("reply", `the reply did not call ${TOOL_NAME}`, text || content);
  }
  return call.input;
}
