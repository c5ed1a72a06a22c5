import { nameSlug } from "../../config/callback-name.ts";
import { matchAll, overlaps, type Span } from "./_spans.ts";
import type { Lang } from "./files.ts";
import { type Command, INTENTS, TOOLS, toolFor } from "./tools.ts";

export interface Found {
  readonly command: Command;
  readonly span: Span;
  readonly note?: string;
}

/** Toolchain hints from the project, for the package manager and a default language. */
export interface RulesProject {
  readonly toolchainFiles?: readonly string[];
  /** "in src" is a folder when `src/` is here. */
  readonly topLevel?: readonly string[];
  /** To fit commands to it (its node_modules/.bin, its Rust edition). */
  readonly root?: string;
}

export function slug(text: string): string {
  return nameSlug(text) || "callback";
}

function packageManager(project: RulesProject): string {
  const files = project.toolchainFiles ?? [];
  if (files.some((f) => f.startsWith("bun.lock"))) return "bun";
  if (files.includes("pnpm-lock.yaml")) return "pnpm";
  if (files.includes("yarn.lock")) return "yarn";
  return "npm";
}

const TSJS = ["*.ts", "*.tsx", "*.js", "*.jsx", "*.mjs", "*.cjs"];

function script(pm: string, name: string, test: boolean): Command {
  const run = test ? `${pm} test` : `${pm} run ${name}`;
  return {
    name: slug(`${pm}-${name}`),
    label: run,
    run,
    patterns: TSJS,
    timeout: test ? 600 : 300,
    project: true,
  };
}

const MAKE_STOP =
  /^(?:after|when|whenever|on|every|each|for|if|once|in|target|sure|it|this|that|the|a|an|me)$/;

/** Commands named outright: a quoted command, a script path, make, npm scripts, npx. */
function explicit(
  lower: string,
  original: string,
  quoted: readonly Found[],
  project: RulesProject,
): Found[] {
  const found: Found[] = [...quoted];
  const take = (span: Span, command: Command, note?: string): void => {
    if (found.some((f) => overlaps(f.span, span))) return;
    found.push(note === undefined ? { command, span } : { command, span, note });
  };
  for (const m of matchAll(
    lower,
    /(?<=^|\s)(\.{1,2}\/[\w./-]*[\w-])(?=$|[\s,;:)]|\.(?:\s|$))|\b(?:run|execute|call|invoke)\s+((?:[\w.-]+\/)*[\w.-]+\.(?:sh|bash|py|rb|pl))\b/,
  )) {
    const offset = m[1] !== undefined ? m[0].indexOf(m[1]) : m[0].indexOf(m[2]!);
    const raw = original.slice(m.start + offset, m.start + offset + (m[1] ?? m[2]!).length);
    const path = raw.startsWith(".") || raw.startsWith("/") ? raw : `./${raw}`;
    const name = slug(
      path
        .split("/")
        .pop()!
        .replace(/\.\w+$/, ""),
    );
    take(
      { start: m.start + offset, end: m.end },
      { name, label: path, run: path, patterns: [], timeout: 120, project: false },
    );
  }
  for (const m of matchAll(
    lower,
    /\b(?:(?:run|runs|running|call|execute|invoke|trigger|do)\s+(?:a\s+|the\s+)?)make(?:\s+([\w.-]+))?|\bmake\s+target\s+([\w.-]+)|\bthe\s+([\w.-]+)\s+make\s*target\b/,
  )) {
    let target = m[1] ?? m[2] ?? m[3];
    if (target !== undefined && MAKE_STOP.test(target)) target = undefined;
    const run = target === undefined ? "make" : `make ${target}`;
    take(m, { name: slug(run), label: run, run, patterns: [], timeout: 300, project: true });
  }
  const pm = packageManager(project);
  for (const m of matchAll(lower, /\b(npm|pnpm|yarn|bun)\s+(?:run\s+([\w:.-]+)|(test)\b)/)) {
    take(m, script(m[1]!, m[2] ?? "test", m[3] !== undefined));
  }
  for (const m of matchAll(lower, /\bthe\s+([\w:.-]+)\s+(?:npm\s+|package\.json\s+)?script\b/)) {
    take(m, script(pm, m[1]!, false));
  }
  for (const tool of TOOLS) {
    for (const m of matchAll(lower, tool.re)) {
      const variant = tool.variants?.find((v) => v.when.test(lower));
      const command: Command = variant
        ? { ...tool, run: variant.run, name: variant.name ?? tool.name }
        : tool;
      take(m, command, variant?.note);
    }
  }
  for (const m of matchAll(lower, /\bnpx\s+([\w@][\w@/.-]*)/)) {
    const run = `npx --no-install ${m[1]}`;
    take(m, {
      name: slug(m[1]!.split("/").pop()!),
      label: run,
      run,
      patterns: [],
      timeout: 120,
      project: true,
    });
  }
  return found.sort((a, b) => a.span.start - b.span.start);
}

/** When the request names none. */
function projectLang(project: RulesProject): Lang | undefined {
  const files = project.toolchainFiles ?? [];
  if (files.includes("Cargo.toml")) return "rust";
  if (files.includes("go.mod")) return "go";
  if (files.some((f) => /^(?:pyproject\.toml|setup\.py|requirements.*\.txt)$/.test(f))) return "py";
  if (files.some((f) => f.startsWith("tsconfig"))) return "ts";
  if (files.includes("package.json")) return "js";
  return undefined;
}

export type IntentResult =
  | { ok: true; found: Found[] }
  | { ok: false; word: string; lang: Lang | undefined };

/** "lint", "format", "typecheck", "test", "build" turned into a tool for the language. */
export function fromIntents(
  lower: string,
  languages: readonly Lang[],
  project: RulesProject,
): IntentResult {
  const found: Found[] = [];
  const fromProject = languages.length === 0 ? projectLang(project) : undefined;
  const lang = languages[0] ?? fromProject;
  for (const intent of INTENTS) {
    const m = matchAll(lower, intent.re)[0];
    if (m === undefined || found.some((f) => overlaps(f.span, m))) continue;
    if (lang === undefined) return { ok: false, word: intent.word, lang };
    const tool =
      intent.word === "test" && (lang === "ts" || lang === "js")
        ? script(packageManager(project), "test", true)
        : toolFor(intent.by, lang);
    if (tool === undefined) return { ok: false, word: intent.word, lang };
    const from = fromProject ? ` (the project has ${fromProject} toolchain files)` : "";
    found.push({ command: tool, span: m, note: `"${m[0]}" read as ${tool.label}${from}` });
  }
  return { ok: true, found: found.sort((a, b) => a.span.start - b.span.start) };
}

export { explicit as explicitCommands };
