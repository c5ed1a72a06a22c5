import { parse } from "yaml";
import type { ProjectFiles } from "../project-files.ts";
import type { Proposal } from "../spec.ts";
import { globPatterns, type Migration, migrated, nameFrom } from "./_common.ts";

const FILES = ["lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml"];
const CARRIED = new Set(["run", "glob", "exclude", "stage_fixed", "root", "name", "files"]);

type Command = Record<string, unknown>;

/** lefthook's pre-commit commands and jobs: glob, run ({staged_files}), exclude, stage_fixed, root. */
export function fromLefthook(p: ProjectFiles): Migration {
  const file = p.first(...FILES);
  if (!file) return { found: null, proposals: [], notes: [] };
  const config = (parse(p.text(file) ?? "") ?? {}) as Record<
    string,
    Record<string, unknown> | undefined
  >;
  const proposals: Proposal[] = [];
  const notes: string[] = [];
  const hooks = Object.keys(config).filter(
    (k) => typeof config[k] === "object" && config[k] !== null,
  );
  for (const hook of hooks) {
    if (hook !== "pre-commit") {
      if (/^pre-|^post-|^commit-msg$/.test(hook))
        notes.push(
          `${hook}: not carried over (cpilot runs callbacks on edits and at pre-commit only)`,
        );
      continue;
    }
    const section = config[hook]!;
    const entries: [string, Command][] = [];
    const commands = section.commands as Record<string, Command> | undefined;
    for (const [name, c] of Object.entries(commands ?? {})) entries.push([name, c]);
    const jobs = section.jobs as Command[] | undefined;
    for (const [i, c] of (jobs ?? []).entries())
      entries.push([String(c.name ?? `job-${i + 1}`), c]);
    const scripts = section.scripts as Record<string, unknown> | undefined;
    for (const name of Object.keys(scripts ?? {}))
      notes.push(
        `pre-commit script "${name}": not carried over (a script file; add it with \`cpilot add\`)`,
      );
    for (const [name, c] of entries) {
      if (typeof c.run !== "string") {
        notes.push(`pre-commit "${name}": no run command, not carried over`);
        continue;
      }
      const pattern = c.glob !== undefined ? globPatterns(c.glob as string | string[]) : [];
      const exclude = c.exclude;
      if (Array.isArray(exclude)) pattern.push(...exclude.map((e) => `!${String(e)}`));
      else if (typeof exclude === "string")
        notes.push(
          `pre-commit "${name}": exclude is a regex (${exclude}); not carried over, add ! patterns by hand`,
        );
      const root = typeof c.root === "string" ? c.root.replace(/\/+$/, "") : undefined;
      if (root !== undefined)
        notes.push(
          `pre-commit "${name}": root "${root}": runs in that folder with the files as the project root names them`,
        );
      if (typeof c.files === "string")
        notes.push(
          `pre-commit "${name}": its files command (${c.files}) is not carried over; cpilot passes the changed files`,
        );
      const dropped = Object.keys(c).filter((k) => !CARRIED.has(k));
      if (dropped.length > 0)
        notes.push(`pre-commit "${name}": ${dropped.join(", ")} not carried over`);
      proposals.push({
        why: `${file}: pre-commit "${name}"`,
        callback: migrated(
          nameFrom(name),
          root ? pattern.map((g) => (g.startsWith("!") ? g : `${root}/**/${g}`)) : pattern,
          c.run,
          {
            ...(root ? { cwd: root } : {}),
            ...(c.stage_fixed === true ? { fixes: true } : {}),
          },
        ),
      });
    }
  }
  return { found: file, proposals, notes };
}
