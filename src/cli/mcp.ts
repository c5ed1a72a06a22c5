import { CpilotError } from "../util/errors.ts";
import { parseFlags } from "./_common.ts";

const USAGE = "cpilot mcp [--config PATH] [--batch-window MS] [--session ID]";

/**
 * `cpilot mcp`: an MCP server on stdio whose edit tools run the write gate and the
 * project's callbacks. Returns when the client closes stdin.
 */
export async function mcpCommand(
  args: string[],
  options: { cwd: string; signal: AbortSignal },
): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      config: { type: "string" },
      "batch-window": { type: "string" },
      session: { type: "string" },
    },
    USAGE,
  );
  if (positionals.length > 0) {
    throw new CpilotError(`Cannot parse arguments: unexpected "${positionals[0]}"`, {
      hint: `usage: ${USAGE}`,
    });
  }
  const rawWindow = values["batch-window"] ?? process.env.CPILOT_MCP_BATCH_MS;
  const windowMs = rawWindow === undefined ? undefined : Number(rawWindow);
  if (windowMs !== undefined && (!Number.isFinite(windowMs) || windowMs < 0 || windowMs > 10_000)) {
    throw new CpilotError(
      `Cannot use --batch-window "${rawWindow}": expected milliseconds, 0 to 10000`,
      {
        hint: "the default is 75",
      },
    );
  }
  const session = values.session ?? process.env.CPILOT_SESSION;
  const { serveStdio } = await import("../mcp/server.ts");
  await serveStdio({
    cwd: options.cwd,
    signal: options.signal,
    ...(values.config === undefined ? {} : { config: values.config }),
    ...(windowMs === undefined ? {} : { batchWindowMs: windowMs }),
    ...(session === undefined || session === "" ? {} : { session }),
  });
  return 0;
}
