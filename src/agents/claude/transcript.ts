import { readRegularTail } from "../../util/read-regular.ts";

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

/** The assistant entries after the last user entry; "" when missing or unreadable. */
export function lastAssistantText(path: string): string {
  // the tail only (a long session runs to hundreds of MB), from a regular file only
  const text = readRegularTail(path, MAX_BYTES);
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
