import { resolve } from "node:path";
import { useLongLivedJit } from "../platform/jit.ts";
import { writeErr } from "../platform/stdio.ts";
import { CpilotError } from "../util/errors.ts";
import { parseFlags } from "./_common.ts";

const USAGE = "cpilot mcp [--root DIR] [--config PATH] [--batch-window MS] [--session ID]";

/** Returns when the client closes stdin. */
export async function mcpCommand(
  args: string[],
  options: { cwd: string; signal: AbortSignal },
): Promise<number> {
  useLongLivedJit(); // a server: it runs the same code for the whole session
  const { values, positionals } = parseFlags(
    args,
    {
      config: { type: "string" },
      root: { type: "string" },
      "batch-window": { type: "string" },
      session: { type: "string" },
    },
    USAGE,
    { session: "record the runs under this session id (default: one per server)" },
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
  const progress = Number(process.env.CPILOT_MCP_PROGRESS_MS);
  // A client that does not expand its variables passes "${workspaceFolder}" as is: use cwd.
  const root =
    values.root !== undefined && !values.root.includes("${")
      ? resolve(options.cwd, values.root)
      : undefined;
  if (values.root !== undefined && root === undefined) {
    writeErr(
      `cpilot mcp: ignoring --root ${values.root} (an unexpanded variable); using ${options.cwd}\n`,
    );
  }
  const { serveStdio } = await import("../mcp/server.ts");
  await serveStdio({
    cwd: root ?? options.cwd,
    signal: options.signal,
    ...(values.config === undefined ? {} : { config: values.config }),
    ...(windowMs === undefined ? {} : { batchWindowMs: windowMs }),
    ...(Number.isFinite(progress) && progress >= 0 ? { progressMs: progress } : {}),
    ...(session === undefined || session === "" ? {} : { session }),
  });
  return 0;
}

const INSTALL_USAGE =
  "cpilot install|uninstall <agent> --mcp [--user] [--command CMD] [--config PATH]";

export async function mcpInstallCommand(
  action: "install" | "uninstall",
  args: string[],
  ctx: { cwd: string },
): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      mcp: { type: "boolean" },
      user: { type: "boolean" },
      command: { type: "string" },
      config: { type: "string" },
    },
    INSTALL_USAGE,
  );
  const agent = positionals[0];
  if (agent === undefined || positionals.length > 1) {
    throw new CpilotError(`Cannot ${action} the MCP server: name one agent`, {
      hint: `usage: ${INSTALL_USAGE}`,
    });
  }
  const { projectRoot } = await import("../mcp/project.ts");
  const { describeMcpResult, installMcp, mcpInstallNote, uninstallMcp } = await import(
    "../mcp/install/index.ts"
  );
  const options = {
    root: projectRoot(ctx.cwd, values.config),
    ...(values.command === undefined ? {} : { command: values.command }),
    ...(values.user === true ? { user: true } : {}),
  };
  const result = action === "install" ? installMcp(agent, options) : uninstallMcp(agent, options);
  writeErr(`${describeMcpResult(result)}\n`);
  const note = action === "install" ? mcpInstallNote(result) : null;
  if (note !== null) writeErr(`  ${note}\n`);
  return 0;
}
