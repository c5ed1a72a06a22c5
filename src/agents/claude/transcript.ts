import { readFileSync } from "node:fs";

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
  let text: string;
  try {
    const data = readFileSync(path);
    text = data.subarray(Math.max(0, data.length - MAX_BYTES)).toString("utf8");
  } catch {
    return "";
  }
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
