import { removalRange, spliceText } from "./_edit.ts";
import { type ActionOutcome, lookupFailure } from "./_outcome.ts";
import { resolveScope } from "./_scope.ts";
import { detectEol, scanMarkdown } from "./markdown.ts";
import { describe, findBlock, normalizeLabel } from "./match.ts";
import type { UpdateCommand } from "./types.ts";

/**
 * `update` replaces, `remove` deletes, the one block matching the id: a heading with its
 * whole section (up to the next heading of the same or a higher level), a list item with
 * its nested lines, or a paragraph.
 */
export function replaceAction(text: string, command: UpdateCommand, file: string): ActionOutcome {
  const lines = scanMarkdown(text);
  const id = command.id ?? "";
  const what = `Cannot ${command.action} "${id}" in "${file}"`;
  const scope = resolveScope(lines, command.section, what);
  if ("ok" in scope) return scope;
  const found = findBlock(lines, id, scope);
  if (found.kind !== "found") return lookupFailure(found, what, (block) => describe(lines, block));
  const block = found.match;
  const warnings: string[] = [];
  if (found.partial) warnings.push(`id "${id}" matched ${describe(lines, block)} by partial text`);
  const touched = [normalizeLabel(block.label)];
  const eol = detectEol(text);
  if (command.action === "remove") {
    const range = removalRange(lines, block.start, block.end);
    return {
      ok: true,
      text: spliceText(lines, range.start, range.end, [], eol),
      warnings,
      touched,
    };
  }
  const content = command.content.split("\n");
  const newFirst = scanMarkdown(command.content)[0];
  if (block.kind === "heading" && !newFirst?.heading) {
    warnings.push(
      `the new content has no heading: the heading at ${describe(lines, block)} is gone`,
    );
  }
  touched.push(normalizeLabel(newFirst?.heading?.text ?? content[0] ?? ""));
  return {
    ok: true,
    text: spliceText(lines, block.start, block.end, content, eol),
    warnings,
    touched,
  };
}
