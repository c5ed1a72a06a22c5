import { parse } from "yaml";
import type { ProjectFiles } from "../project-files.ts";
import type { Proposal } from "../spec.ts";
import { globPatterns, type Migration, migrated, nameFrom } from "./_common.ts";

const DATA_FILES = [
  ".lintstagedrc",
  ".lintstagedrc.json",
  ".lintstagedrc.yaml",
  ".lintstagedrc.yml",
];
const SCRIPT_FILES = [
  ".lintstagedrc.js",
  ".lintstagedrc.mjs",
  ".lintstagedrc.cjs",
  "lint-staged.config.js",
  "lint-staged.config.mjs",
  "lint-staged.config.cjs",
  "lint-staged.config.ts",
];

/** One callback per glob, its commands in turn, each given the files; a glob without a slash matches anywhere. */
export function fromLintStaged(p: ProjectFiles): Migration {
  const pkg = p.packageJson() as { "lint-staged"?: unknown };
  const file = p.first(...DATA_FILES);
  const script = p.first(...SCRIPT_FILES);
  let config: unknown;
  let found: string | null = null;
  if (file) {
    config = parse(p.text(file) ?? "");
    found = file;
  } else if (pkg["lint-staged"] !== undefined) {
    config = pkg["lint-staged"];
    found = '"lint-staged" in package.json';
  } else if (script) {
    return {
      found: script,
      proposals: [],
      notes: [
        `${script} is code: cpilot does not run it to read it; add its commands with \`cpilot add\``,
      ],
    };
  }
  if (found === null || typeof config !== "object" || config === null)
    return { found, proposals: [], notes: [] };
  const proposals: Proposal[] = [];
  const notes: string[] = [];
  for (const [glob, value] of Object.entries(config as Record<string, unknown>)) {
    const commands = (Array.isArray(value) ? value : [value]).filter(
      (c): c is string => typeof c === "string",
    );
    if (commands.length === 0) {
      notes.push(`"${glob}": its task is a function, not carried over`);
      continue;
    }
    // lint-staged appends the files to every command.
    const run = commands.map((c) => `${c} {staged_files}`).join(" && ");
    proposals.push({
      why: `${found}: "${glob}"`,
      callback: migrated(
        nameFrom(commands[0]!.split(/\s+/).slice(0, 2).join("-")),
        globPatterns(glob),
        run,
      ),
    });
  }
  return { found, proposals, notes };
}
