import type { ProjectFiles } from "./project-files.ts";

/** What a .pre-commit-config.yaml hook says besides its id: its `args` and file types. */
export interface PreCommitHook {
  readonly args: string[];
  /** `javascript` → `*.js`…; empty when none. */
  readonly patterns: string[];
}

/** pre-commit's (identify's) file types, as the patterns they stand for. */
const TYPES: Readonly<Record<string, readonly string[]>> = {
  javascript: ["*.js", "*.mjs", "*.cjs"],
  jsx: ["*.jsx"],
  ts: ["*.ts", "*.mts", "*.cts"],
  tsx: ["*.tsx"],
  css: ["*.css"],
  scss: ["*.scss"],
  json: ["*.json"],
  yaml: ["*.yaml", "*.yml"],
  markdown: ["*.md"],
  html: ["*.html"],
  python: ["*.py"],
};

export function preCommitHook(p: ProjectFiles, id: string): PreCommitHook | undefined {
  const text = p.text(".pre-commit-config.yaml");
  if (text === undefined) return undefined;
  const lines = text.split("\n");
  const at = lines.findIndex((l) => new RegExp(`^\\s*-\\s*id:\\s*['"]?${id}['"]?\\s*$`).test(l));
  if (at === -1) return undefined;
  const block: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (/^\s*-\s*(id|repo):/.test(line)) break;
    block.push(line);
  }
  const args = listAfter(block, "args");
  const types = [...listAfter(block, "types_or"), ...listAfter(block, "types")];
  const patterns = types.flatMap((t) => TYPES[t] ?? []);
  // a type this table does not know: the hook's files cannot be told, so none are narrowed
  const known = types.every((t) => TYPES[t] !== undefined) && types[0] !== "file";
  return { args, patterns: known ? patterns : [] };
}

/** Inline (`[a, b]`) or as `- item` lines below it. */
function listAfter(block: readonly string[], key: string): string[] {
  const at = block.findIndex((l) => new RegExp(`^\\s*${key}\\s*:`).test(l));
  if (at === -1) return [];
  const inline = /:\s*\[(.*)\]\s*$/.exec(block[at]!);
  const unquote = (v: string) => v.trim().replace(/^['"]|['"]$/g, "");
  if (inline) return inline[1]!.split(",").map(unquote).filter(Boolean);
  const indent = /^\s*/.exec(block[at]!)![0].length;
  const out: string[] = [];
  for (const line of block.slice(at + 1)) {
    const item = /^(\s*)-\s+(.*)$/.exec(line);
    if (!item || item[1]!.length < indent) break;
    out.push(unquote(item[2]!));
  }
  return out;
}
