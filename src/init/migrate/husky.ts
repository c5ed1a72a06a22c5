import type { ProjectFiles } from "../project-files.ts";
import type { Proposal } from "../spec.ts";
import { type Migration, migrated, nameFrom } from "./_common.ts";
import { fromLintStaged } from "./lint-staged.ts";

/** `lint-staged` there brings in the lint-staged config; every other command runs on the whole project. */
export function fromHusky(p: ProjectFiles): Migration {
  const file = p.first(".husky/pre-commit");
  if (!file) return { found: null, proposals: [], notes: [] };
  const proposals: Proposal[] = [];
  const notes: string[] = [];
  for (const raw of (p.text(file) ?? "").split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || /husky\.sh|^\.\s|^source\s/.test(line)) continue;
    if (/\blint-staged\b/.test(line)) {
      const staged = fromLintStaged(p);
      proposals.push(...staged.proposals);
      notes.push(...staged.notes);
      if (staged.found === null) notes.push(`"${line}": no lint-staged config found to carry over`);
      continue;
    }
    if (/^(?:if|then|else|fi|for|do|done|exit|set|export)\b/.test(line)) {
      notes.push(`"${line}": shell control flow, not carried over`);
      continue;
    }
    notes.push(
      `"${line}" ran once per commit on the whole project; as a callback it runs after edits too (set blocking: false if it is slow)`,
    );
    proposals.push({
      why: `${file}: ${line}`,
      callback: migrated(nameFrom(line.split(/\s+/).slice(0, 3).join("-")), ["*"], line, {
        overlap: "replace",
      }),
    });
  }
  return { found: file, proposals, notes };
}
