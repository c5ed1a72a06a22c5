import type { MdDoc } from "./_doc.ts";
import { removalRange } from "./_edit.ts";
import { type DocOutcome, lookupFailure } from "./_outcome.ts";
import { resolveScope } from "./_scope.ts";
import { scanMarkdown } from "./markdown.ts";
import { describe, findBlock, normalizeLabel } from "./match.ts";
import type { UpdateCommand } from "./types.ts";

/** The block: a heading with its whole section, a list item with its nested lines, or a paragraph. */
export function replaceAction(doc: MdDoc, command: UpdateCommand, file: string): DocOutcome {
  const lines = doc.lines;
  const id = command.id ?? "";
  const what = `Cannot ${command.action} "${id}" in "${file}"`;
  const scope = resolveScope(lines, command.section, what, doc.headings());
  if ("ok" in scope) return scope;
  const found = findBlock(lines, id, { ...scope, labelled: (wanted) => doc.labelled(wanted) });
  if (found.kind !== "found") return lookupFailure(found, what, (block) => describe(lines, block));
  const block = found.match;
  const warnings: string[] = [];
  if (found.partial) warnings.push(`id "${id}" matched ${describe(lines, block)} by partial text`);
  const touched = [normalizeLabel(block.label)];
  if (command.action === "remove") {
    const range = removalRange(lines, block.start, block.end);
    doc.splice(range.start, range.end, []);
    return { ok: true, warnings, touched };
  }
  const content = command.content.split("\n");
  const newFirst = scanMarkdown(command.content)[0];
  if (block.kind === "heading" && !newFirst?.heading) {
    warnings.push(
      `the new content has no heading: the heading at ${describe(lines, block)} is gone`,
    );
  }
  touched.push(normalizeLabel(newFirst?.heading?.text ?? content[0] ?? ""));
  doc.splice(block.start, block.end, content);
  return { ok: true, warnings, touched };
}
