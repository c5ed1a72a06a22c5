import { Buffer } from "node:buffer";
import { closeSync, fstatSync, readSync } from "node:fs";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { listRuns, openRunLog, readRun, type StoredRun } from "../../engine/runs-store.ts";
import { runSeenFrom } from "../../ui/seen-from.ts";
import { renderTable } from "../../ui/table.ts";
import type { ToolContext } from "../tool-context.ts";

const DEFAULT_LINES = 100;
const MAX_LINES = 500;
const MAX_BYTES = 128 * 1024;
const LINE_CHARS = 500;

/** Reading at most MAX_BYTES from its end. */
export function logTail(fd: number, lines: number): { lines: string[]; total: number | null } {
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, MAX_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    let all = buffer.toString("utf8").split("\n");
    if (length < size) all = all.slice(1);
    if (all.at(-1) === "") all.pop();
    const cut = all.slice(-lines).map((l) => {
      const line = l.endsWith("\r") ? l.slice(0, -1) : l;
      return line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)} … [line cut]` : line;
    });
    return { lines: cut, total: length < size ? null : all.length };
  } finally {
    closeSync(fd);
  }
}

/** A package's runs are kept in its own folder, beside its config; `roots[0]` is the project's. */
function findRun(roots: readonly string[], runId: string): StoredRun | null {
  for (const root of roots) {
    const run = readRun(root, runId);
    if (run !== null) return seenFromTop(run, root, roots);
  }
  return null;
}

/** Its files named from the project's folder, as the tool results name them. */
function seenFromTop(run: StoredRun, root: string, roots: readonly string[]): StoredRun {
  const top = roots[0] ?? root;
  return root === top ? run : { ...run, ...runSeenFrom(run, root, top) };
}

export function registerCallbackLogs(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "callback_logs",
    {
      description:
        "Show a callback run's output by its run id (the id in a callback result), the last lines only. " +
        "Without run_id: the recent runs.",
      inputSchema: {
        run_id: z.string().optional().describe("The run id from a callback result"),
        lines: z
          .number()
          .int()
          .min(1)
          .max(MAX_LINES)
          .optional()
          .describe(`Last lines to show (default ${DEFAULT_LINES})`),
      },
    },
    async ({ run_id, lines }) => {
      const roots = ctx.project.runRoots();
      const recentRuns = (limit: number) =>
        roots
          .flatMap((root) => listRuns(root, limit).map((r) => seenFromTop(r, root, roots)))
          .sort((a, b) => b.startedAt - a.startedAt)
          .slice(0, limit);
      if (run_id === undefined) {
        const runs = recentRuns(15);
        if (runs.length === 0) return ctx.reply("No callback runs yet.");
        const rows = runs.map((r) => [
          r.id,
          r.callback,
          r.status,
          r.summary,
          r.files.length === 1 ? (r.files[0] ?? "") : `${r.files.length} files`,
        ]);
        return ctx.reply(renderTable(["run", "callback", "status", "exit", "files"], rows));
      }
      const run = findRun(roots, run_id);
      if (run === null) {
        const recent = recentRuns(5).map((r) => r.id);
        return ctx.reply(
          `Cannot show run ${JSON.stringify(run_id)}: no such run (old runs are pruned)\nhint: recent runs: ${recent.join(", ") || "(none)"}`,
          true,
        );
      }
      const head = `run ${run.id} · ${run.callback} · ${run.status} · ${run.summary} · ${(run.durationMs / 1000).toFixed(1)} s · files: ${run.files.join(", ")}`;
      const fd = openRunLog(run);
      if (fd === null) return ctx.reply(`${head}\n(its log is gone)`);
      const tail = logTail(fd, lines ?? DEFAULT_LINES);
      const shownCount = tail.lines.length;
      const note =
        tail.total === null
          ? `(last ${shownCount} lines of a long log: ${run.logPath})`
          : tail.total > shownCount
            ? `(last ${shownCount} of ${tail.total} lines)`
            : "";
      return ctx.reply(
        [head, note, ...(tail.lines.length > 0 ? tail.lines : ["(no output)"])]
          .filter((l) => l !== "")
          .join("\n"),
      );
    },
  );
}
