import { postJson } from "./_http.ts";
import { ModelError } from "./model-error.ts";
import type { ModelRequest } from "./prompt.ts";
import type { ProviderConfig } from "./provider.ts";
import { CALLBACK_JSON_SCHEMA, TOOL_DESCRIPTION, TOOL_NAME } from "./schema.ts";

/**
 * One forced function call carrying the callback: it works on more OpenAI-compatible
 * servers than `json_schema`. No `max_tokens` or `temperature`: newer models refuse them.
 */
export function openaiBody(config: ProviderConfig, request: ModelRequest): unknown {
  return {
    model: config.model,
    messages: [
      { role: "system", content: request.system },
      { role: "user", content: request.user },
    ],
    tools: [
      {
        type: "function",
        function: {
          name: TOOL_NAME,
          description: TOOL_DESCRIPTION,
          parameters: CALLBACK_JSON_SCHEMA,
        },
      },
    ],
    tool_choice: { type: "function", function: { name: TOOL_NAME } },
  };
}

function parseArguments(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  try {
    return JSON.parse(raw);
  } catch (err) {
    throw new ModelError(
      "reply",
      `the function arguments are not valid JSON (${(err as Error).message})`,
      raw,
    );
  }
}

/** Returns the forced call's arguments, not yet validated; JSON in the message text is accepted too. */
export async function askOpenAI(
  config: ProviderConfig,
  request: ModelRequest,
  signal?: AbortSignal,
): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (config.apiKey !== "") headers.authorization = `Bearer ${config.apiKey}`;
  const answer = await postJson(
    `${config.baseUrl}/chat/completions`,
    headers,
    openaiBody(config, request),
    config.timeoutMs,
    signal,
  );
  const message = (answer as { choices?: { message?: unknown }[] })?.choices?.[0]?.message as
    | { content?: unknown; tool_calls?: { function?: { name?: unknown; arguments?: unknown } }[] }
    | undefined;
  if (message === undefined || message === null) {
    throw new ModelError(
      "transport",
      "the answer has no choices[0].message (not a chat completion)",
    );
  }
  const call = message.tool_calls?.find((c) => c?.function?.name === TOOL_NAME);
  if (call !== undefined) return parseArguments(call.function?.arguments);
  const text = typeof message.content === "string" ? message.content.trim() : "";
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(text);
  if (text !== "") return parseArguments(fenced ? fenced[1] : text);
  throw new ModelError("reply", `the reply did not call ${TOOL_NAME}`, message);
}
