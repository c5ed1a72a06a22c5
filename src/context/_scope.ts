import { type ActionOutcome, lookupFailure } from "./_outcome.ts";
import type { MdLine } from "./markdown.ts";
import { describe, findSection, sectionBody } from "./match.ts";

export function resolveScope(
  lines: readonly MdLine[],
  section: string | undefined,
  what: string,
  headings?: readonly number[],
): { from: number; to: number } | ActionOutcome {
  if (section === undefined) return { from: 0, to: lines.length };
  const found = findSection(lines, section, headings);
  if (found.kind !== "found") {
    const failed = lookupFailure(found, `${what}: section "${section}"`, (index) =>
      describe(lines, { start: index }),
    );
    if (!failed.ok && found.kind === "none")
      failed.error = `${what}: section "${section}" does not exist`;
    return failed;
  }
  return sectionBody(lines, found.match, headings);
}
