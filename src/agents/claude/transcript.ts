import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** Transcripts can grow large; only the end matters. */
const MAX_BYTES = 4 * 1024 * 1024;

type Entry = { type?: string; message?: { role?: string; content?: unknown } };

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) =>
      typeof block === "object" && block !== null && (block as { type?: string }).type === "text"
        ? String((block as { text?: unknown }).text ?? "")
        : "",
    )
    .filter((t) => t !== "")
    .join("\n");
}

/**
 * The agent's last message from a Claude Code transcript (JSON lines): the text of the
 * assistant entries after the last user entry. "" when the file is missing or unreadable.
 */
export function lastAssistantText(path: string): string {
  const text = readTail(path, MAX_BYTES);
  if (text === null) return "";
  const parts: string[] = [];
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]?.trim();
    if (!line?.startsWith("{")) continue;
    let entry: Entry;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      continue;
    }
    const role = entry.message?.role ?? entry.type;
    if (entry.type === "user" || role === "user") {
      if (parts.length > 0) break;
      continue;
    }
    if (entry.type !== "assistant") continue;
    const t = textOf(entry.message?.content);
    if (t !== "") parts.unshift(t);
  }
  return parts.join("\n");
}

/**
 * The last `max` bytes of a regular file as text, or null. Only the tail is read (a long
 * session's transcript runs to hundreds of MB), and anything but a regular file (a FIFO,
 * /dev/zero) is refused without reading: a payload's path must not hang or flood the hook.
 */
function readTail(path: string, max: number): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const start = Math.max(0, st.size - max);
    const buf = Buffer.alloc(st.size - start);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, start + got);
      if (n <= 0) break;
      got += n;
    }
    return buf.subarray(0, got).toString("utf8");
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
