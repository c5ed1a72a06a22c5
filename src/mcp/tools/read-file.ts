import { statSync } from "node:fs";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { resolveGateConfig, secretKind } from "../../gate/index.ts";
import { containPath } from "../../util/contained-path.ts";
import { readRegularFile } from "../../util/read-regular.ts";
import { decodeText, MAX_TEXT_BYTES } from "../text-file.ts";
import type { ToolContext } from "../tool-context.ts";

/** Lines returned when no limit is given. */
export const DEFAULT_READ_LINES = 2000;
const MAX_LINE_CHARS = 2000;

/** Lines numbered as agents expect (`cat -n`): `     1\t<line>`. */
export function formatRead(text: string, offset: number, limit: number): string {
  if (text === "") return "(empty file)";
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  if (offset > lines.length) {
    throw new RangeError(`offset ${offset} is past the end: the file has ${lines.length} lines`);
  }
  const slice = lines.slice(offset - 1, offset - 1 + limit);
  const body = slice.map((line, i) => {
    const shown =
      line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut]` : line;
    return `${String(offset + i).padStart(6)}\t${shown}`;
  });
  const last = offset - 1 + slice.length;
  if (offset > 1 || last < lines.length) {
    body.push(
      `(lines ${offset}-${last} of ${lines.length}${last < lines.length ? `; pass offset ${last + 1} to read on` : ""})`,
    );
  }
  return body.join("\n");
}

/** read_file: read a file line-numbered, e.g. again after a formatter rewrote it. */
export function registerReadFile(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "read_file",
    {
      description:
        "Read a text file, line-numbered like `cat -n` (the numbers and tab are not part of the file). " +
        "Use it to re-read a file after a callback rewrote it. offset is the first line (1-based), " +
        `limit the number of lines (default ${DEFAULT_READ_LINES}).`,
      inputSchema: {
        path: z.string().describe("File path, relative to the project root"),
        offset: z.number().int().min(1).optional().describe("First line to read, 1-based"),
        limit: z.number().int().min(1).optional().describe("How many lines to read"),
      },
    },
    ({ path, offset, limit }) =>
      ctx.batcher.serial(async () => {
        await ctx.project.load();
        const shown = JSON.stringify(path);
        const where = containPath(ctx.project.root, path);
        if (!where.ok) {
          return ctx.reply(
            `Cannot read ${shown}: ${where.reason}; read only files inside the project root`,
            true,
          );
        }
        let secrets = true;
        try {
          secrets = resolveGateConfig(ctx.project.gateConfig()).defaults.secrets;
        } catch {
          // a bad gate section keeps the protection on
        }
        const kind = secretKind(where.lexical);
        if (secrets && kind !== null) {
          return ctx.reply(
            `Cannot read ${shown}: it is ${kind}, which holds secrets; ask the user for what you need from it`,
            true,
          );
        }
        let size: number;
        try {
          const stat = statSync(where.absolute);
          if (stat.isDirectory()) return ctx.reply(`Cannot read ${shown}: it is a directory`, true);
          size = stat.size;
        } catch {
          return ctx.reply(`Cannot read ${shown}: no such file`, true);
        }
        if (size > MAX_TEXT_BYTES) {
          return ctx.reply(
            `Cannot read ${shown}: it is ${size} bytes, over the ${MAX_TEXT_BYTES}-byte limit`,
            true,
          );
        }
        const bytes = readRegularFile(where.absolute, MAX_TEXT_BYTES);
        if (bytes === null)
          return ctx.reply(
            `Cannot read ${shown}: it is not a regular file (a FIFO, a device?)`,
            true,
          );
        const decoded = decodeText(bytes);
        if (decoded === null)
          return ctx.reply(`Cannot read ${shown}: it is not UTF-8 text (binary?)`, true);
        try {
          return ctx.reply(formatRead(decoded.text, offset ?? 1, limit ?? DEFAULT_READ_LINES));
        } catch (err) {
          return ctx.reply(`Cannot read ${shown}: ${(err as Error).message}`, true);
        }
      }),
  );
}
