/** The JSON a tool printed among other lines, from the first line opening with `open` to the last closing; undefined when none parses. */
export function jsonDocument(
  lines: readonly string[],
  claimed: Uint8Array,
  open: "[" | "{",
): unknown {
  const close = open === "[" ? "]" : "}";
  const start = lines.findIndex((l) => l.trimStart().startsWith(open));
  if (start < 0) return undefined;
  let end = lines.length - 1;
  while (end > start && !(lines[end] as string).trimEnd().endsWith(close)) end--;
  let value: unknown;
  try {
    value = JSON.parse(lines.slice(start, end + 1).join("\n"));
  } catch {
    return undefined;
  }
  for (let i = start; i <= end; i++) claimed[i] = 1;
  return value;
}
