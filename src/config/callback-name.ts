/** Lowercase letters, digits, `-` and `_`, other runs as one `-`, trimmed, at most 40; "" when nothing is left. */
export function nameSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "")
    .slice(0, 40)
    .replace(/[-_]+$/, "");
}
