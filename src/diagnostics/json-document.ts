/**
 * The JSON document a tool printed among other lines (npm's banner, a summary): from the
 * first line that opens with `open` to the last that ends with its closer, parsed, and its
 * lines marked in `claimed`. Undefined when there is none or it does not parse.
 */
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
