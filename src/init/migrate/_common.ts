import { nameSlug } from "../../config/callback-name.ts";
import { expandBraces } from "../scripts.ts";
import type { CallbackSpec, Proposal } from "../spec.ts";

export interface Migration {
  readonly found: string | null;
  readonly proposals: Proposal[];
  readonly notes: string[];
}

const FILE_TEMPLATES = /\{(?:staged_files|all_files|files|push_files|file)\}/g;

/** A hook runner's command as a cpilot bash command: its file templates become "$@". */
export function withFiles(command: string): { run: string; takesFiles: boolean } {
  const takesFiles = FILE_TEMPLATES.test(command);
  FILE_TEMPLATES.lastIndex = 0;
  return { run: command.replace(FILE_TEMPLATES, '"$@"').trim(), takesFiles };
}

export function globPatterns(glob: string | readonly string[]): string[] {
  const globs = typeof glob === "string" ? [glob] : [...glob];
  return [...new Set(globs.flatMap((g) => expandBraces(g.replace(/^\.\//, ""))))];
}

/** A formatter, --fix, --write. */
export function looksFixing(command: string): boolean {
  return /\s--(?:fix|write)\b|\bformat\b|\bfmt\b|\bprettier\b|\bblack\b|\bisort\b|\bgofmt\b|\brustfmt\b/.test(
    command,
  );
}

/** A slug, at most 40 characters. */
export function nameFrom(text: string): string {
  const slug = nameSlug(
    text
      .toLowerCase()
      .replace(
        /^(?:npx|pnpm|yarn|bunx|npm run|pnpm exec|uv run|poetry run)\s+(--no-install\s+)?/,
        "",
      ),
  );
  return /^[a-z0-9]/.test(slug) ? slug : `cb-${slug || "callback"}`;
}

export function migrated(
  name: string,
  pattern: string[],
  command: string,
  extra: Partial<CallbackSpec> = {},
): CallbackSpec {
  const { run, takesFiles } = withFiles(command);
  return {
    name,
    description: `from ${command.length > 60 ? `${command.slice(0, 57)}...` : command}`,
    pattern: pattern.length > 0 ? pattern : ["*"],
    run,
    timeout: 120,
    ...(takesFiles ? {} : { overlap: "replace" as const }),
    ...(looksFixing(command) ? { fixes: true } : {}),
    ...extra,
  };
}
