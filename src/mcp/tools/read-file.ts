import { join } from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { resolveGateConfig, secretKind } from "../../gate/index.ts";
import { containPath } from "../../util/contained-path.ts";
import { openTargetAt, readFileIn, realFolder } from "../../util/contained-write.ts";
import { decodeText, MAX_TEXT_BYTES } from "../text-file.ts";
import type { ToolContext } from "../tool-context.ts";

export const DEFAULT_READ_LINES = 2000;
const MAX_LINE_CHARS = 2000;

/** `     1\t<line>`, as agents expect (`cat -n`). */
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
        const state = await ctx.project.load();
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
        // The protection applies to the file that would be read: the path as written and
        // where its symlinks (a link to .env, a linked folder) really lead.
        const kind = secretKind(where.lexical) ?? secretKind(where.relative);
        if (secrets && kind !== null) {
          return ctx.reply(
            `Cannot read ${shown}: it is ${kind}${where.lexical === where.relative ? "" : ` (it leads to ${where.relative})`}, which holds secrets; ask the user for what you need from it`,
            true,
          );
        }
        let read: ReturnType<typeof readFileIn>;
        try {
          // Read the file that was checked: through its held folder, not following a link
          // put at its name since.
          const at = openTargetAt(
            ctx.project.root,
            join(realFolder(ctx.project.root), where.relative),
          );
          try {
            read = readFileIn(at.dir, at.name, MAX_TEXT_BYTES);
          } finally {
            at.dir.close();
          }
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== "ENOENT") {
            return ctx.reply(`Cannot read ${shown}: ${(err as Error).message}`, true);
          }
          read = { kind: "missing" };
        }
        if (read.kind === "missing") return ctx.reply(`Cannot read ${shown}: no such file`, true);
        if (read.kind === "directory")
          return ctx.reply(`Cannot read ${shown}: it is a directory`, true);
        if (read.kind === "too-big") {
          return ctx.reply(
            `Cannot read ${shown}: it is ${read.size} bytes, over the ${MAX_TEXT_BYTES}-byte limit`,
            true,
          );
        }
        if (read.kind === "error") return ctx.reply(`Cannot read ${shown}: ${read.message}`, true);
        if (read.kind !== "ok")
          return ctx.reply(
            `Cannot read ${shown}: it is not a regular file (a FIFO, a device?)`,
            true,
          );
        const bytes = read.bytes;
        const decoded = decodeText(bytes);
        if (decoded === null)
          return ctx.reply(`Cannot read ${shown}: it is not UTF-8 text (binary?)`, true);
        try {
          const text = formatRead(decoded.text, offset ?? 1, limit ?? DEFAULT_READ_LINES);
          // After the numbered lines, so it cannot be taken for the file's text.
          const note =
            state.kind === "broken" && state.unloaded
              ? `\n\n(cpilot: the project's config did not load, so writes through cpilot's tools are refused until the user fixes it: ${state.error.split("\n")[0]})`
              : "";
          return ctx.reply(text + note);
        } catch (err) {
          return ctx.reply(`Cannot read ${shown}: ${(err as Error).message}`, true);
        }
      }),
  );
}
