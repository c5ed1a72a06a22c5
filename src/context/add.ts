import { appendInto, createSection, type Insertion, newSectionLevel } from "./_append.ts";
import type { MdDoc } from "./_doc.ts";
import { type DocOutcome, failure, lookupFailure } from "./_outcome.ts";
import { sectionEnd } from "./blocks.ts";
import { scanMarkdown } from "./markdown.ts";
import { describe, findSection, normalizeLabel } from "./match.ts";
import type { UpdateCommand } from "./types.ts";

/** At the end of the section (after its subsections) or of the file; a missing section is created. */
export function addAction(doc: MdDoc, command: UpdateCommand, file: string): DocOutcome {
  const lines = doc.lines;
  const headings = doc.headings();
  const content = command.content.split("\n");
  const warnings: string[] = [];
  const what = `Cannot add to "${file}"`;
  if (command.id !== undefined) warnings.push(`id "${command.id}" is ignored by add`);
  let plan: Insertion;
  if (command.section === undefined) {
    plan = appendInto(lines, null, lines.length, content);
  } else {
    const found = findSection(lines, command.section, headings);
    if (found.kind === "ambiguous") {
      return lookupFailure(found, `${what}: section "${command.section}"`, (index) =>
        describe(lines, { start: index }),
      );
    }
    if (found.kind === "found") {
      const heading = found.match;
      plan = appendInto(lines, heading, sectionEnd(lines, heading, headings), content);
      const level = lines[heading]?.heading?.level ?? 0;
      const first = scanMarkdown(command.content)[0]?.heading;
      if (first && first.level <= level) {
        warnings.push(
          `content starts with a level-${first.level} heading, so it begins a new section after "${command.section}"`,
        );
      }
    } else {
      const first = scanMarkdown(command.content)[0]?.heading;
      const usual = newSectionLevel(lines, headings);
      const level = first ? Math.max(1, Math.min(usual, first.level - 1)) : usual;
      plan = createSection(lines, command.section, level, content);
      if (lines.length > 0) warnings.push(`section "${command.section}" did not exist: created it`);
    }
  }
  if ("error" in plan)
    return failure(`${what}: ${plan.error}`, "close the fence in the file first");
  const touched = [normalizeLabel(content[0] ?? "")];
  doc.splice(plan.at, plan.at, plan.insert);
  return { ok: true, warnings, touched };
}
