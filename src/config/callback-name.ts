/**
 * Text as a callback name: lowercase letters, digits, `-` and `_`, runs of anything else
 * as one `-`, no `-` or `_` at either end, at most 40 characters; "" when nothing is left.
 */
export function nameSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "")
    .slice(0, 40)
    .replace(/[-_]+$/, "");
}
