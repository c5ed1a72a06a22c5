import { appendInto, createSection, newSectionLevel } from "./_append.ts";
import type { MdDoc } from "./_doc.ts";
import { removalRange } from "./_edit.ts";
import { type ActionFailure, type DocOutcome, failure, lookupFailure } from "./_outcome.ts";
import { resolveScope } from "./_scope.ts";
import { type Block, sectionEnd } from "./blocks.ts";
import type { MdLine } from "./markdown.ts";
import { describe, findBlock, findSection, type Lookup, normalizeLabel } from "./match.ts";
import type { UpdateCommand } from "./types.ts";

const BOX = /^(\s*(?:[-*+]|\d{1,9}[.)])[ \t]+)\[ \]/;
const COMPLETED = "Completed";

/** Local calendar date. */
function isoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Among several matching tasks, the only open one wins. */
function preferOpen(found: Lookup<Block>): Lookup<Block> {
  if (found.kind !== "ambiguous") return found;
  const open = found.matches.filter((block) => block.checked === false);
  return open.length === 1 ? { kind: "found", match: open[0] as Block, partial: false } : found;
}

function headingAbove(lines: readonly MdLine[], index: number): number {
  for (let i = index - 1; i >= 0; i--) if (lines[i]?.heading) return i;
  return -1;
}

/** Dedented to its own indentation, the first one dated. */
function movedLines(lines: readonly MdLine[], block: Block, date: string): string[] {
  const indentOf = (text: string) => text.length - text.trimStart().length;
  const own = indentOf(lines[block.start]?.text ?? "");
  return lines.slice(block.start, block.end).map((line, i) => {
    const text = line.text.slice(Math.min(own, indentOf(line.text)));
    return i === 0 ? `${text} (completed ${date})` : text;
  });
}

function moveToCompleted(doc: MdDoc, block: Block, date: string): ActionFailure | null {
  const lines = doc.lines;
  const target = findSection(lines, COMPLETED, doc.headings());
  if (target.kind === "ambiguous") {
    return lookupFailure(target, `Cannot move the task: section "${COMPLETED}"`, (index) =>
      describe(lines, { start: index }),
    );
  }
  const inside = target.kind === "found" && block.start > target.match;
  if (inside && block.end <= sectionEnd(lines, target.match, doc.headings())) return null;
  const moved = movedLines(lines, block, date);
  const range = removalRange(lines, block.start, block.end);
  const level = lines[headingAbove(lines, block.start)]?.heading?.level;
  doc.splice(range.start, range.end, []);
  const rest = doc.lines;
  const headings = doc.headings();
  const heading = findSection(rest, COMPLETED, headings);
  const plan =
    heading.kind === "found"
      ? appendInto(rest, heading.match, sectionEnd(rest, heading.match, headings), moved)
      : createSection(rest, COMPLETED, level ?? newSectionLevel(rest, headings), moved);
  if ("error" in plan) return failure(`Cannot move the task to "${COMPLETED}": ${plan.error}`);
  doc.splice(plan.at, plan.at, plan.insert);
  return null;
}

/** Tick the task whose text matches the id; with `moveCompleted`, move it dated to "Completed". */
export function completeAction(
  doc: MdDoc,
  command: UpdateCommand,
  file: string,
  options: { moveCompleted: boolean; now: Date },
): DocOutcome {
  const lines = doc.lines;
  const id = command.id ?? "";
  const what = `Cannot complete "${id}" in "${file}"`;
  const scope = resolveScope(lines, command.section, what, doc.headings());
  if ("ok" in scope) return scope;
  const isTask = (block: Block) => block.kind === "item" && block.checked !== undefined;
  const labelled = (wanted: string) => doc.labelled(wanted);
  const found = preferOpen(findBlock(lines, id, { ...scope, accept: isTask, labelled }));
  if (found.kind !== "found") return lookupFailure(found, what, (block) => describe(lines, block));
  const block = found.match;
  const warnings: string[] = [];
  if (found.partial) warnings.push(`id "${id}" matched ${describe(lines, block)} by partial text`);
  if (command.content.trim() !== "") warnings.push("the content of a complete block is ignored");
  const touched = [normalizeLabel(block.label)];
  if (block.checked) {
    warnings.push(`${describe(lines, block)} was already complete`);
    return { ok: true, warnings, touched };
  }
  const start = doc.mark();
  const line = lines[block.start] as MdLine;
  doc.setText(block.start, line.text.replace(BOX, "$1[x]"));
  if (!options.moveCompleted) return { ok: true, warnings, touched };
  const moved = moveToCompleted(doc, block, isoDate(options.now));
  if (moved !== null) {
    doc.undoTo(start);
    return moved;
  }
  return { ok: true, warnings, touched };
}
