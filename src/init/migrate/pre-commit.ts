import { parse } from "yaml";
import type { ProjectFiles } from "../project-files.ts";
import type { Proposal } from "../spec.ts";
import { type Migration, migrated, nameFrom } from "./_common.ts";

/** Hook ids whose tool cpilot can run directly, and how. */
const KNOWN: Record<string, { run: string; exts: string[] }> = {
  black: { run: "black --quiet {files}", exts: ["py", "pyi"] },
  ruff: { run: "ruff check --fix {files}", exts: ["py", "pyi"] },
  "ruff-check": { run: "ruff check --fix {files}", exts: ["py", "pyi"] },
  "ruff-format": { run: "ruff format {files}", exts: ["py", "pyi"] },
  flake8: { run: "flake8 {files}", exts: ["py"] },
  isort: { run: "isort {files}", exts: ["py", "pyi"] },
  mypy: { run: "mypy {files}", exts: ["py", "pyi"] },
  pylint: { run: "pylint {files}", exts: ["py"] },
  prettier: {
    run: "prettier --write --ignore-unknown {files}",
    exts: ["js", "jsx", "ts", "tsx", "css", "json", "md", "yaml"],
  },
  eslint: { run: "eslint {files}", exts: ["js", "jsx", "ts", "tsx"] },
  shellcheck: { run: "shellcheck {files}", exts: ["sh", "bash"] },
  gofmt: { run: "gofmt -w {files}", exts: ["go"] },
  "go-fmt": { run: "gofmt -w {files}", exts: ["go"] },
  "cargo-check": { run: "cargo check --quiet", exts: ["rs"] },
  clippy: { run: "cargo clippy --quiet -- -D warnings", exts: ["rs"] },
  fmt: { run: "cargo fmt", exts: ["rs"] },
};

const TYPES: Record<string, string[]> = {
  python: ["py", "pyi"],
  pyi: ["pyi"],
  javascript: ["js", "mjs", "cjs"],
  jsx: ["jsx"],
  ts: ["ts"],
  tsx: ["tsx"],
  rust: ["rs"],
  go: ["go"],
  shell: ["sh", "bash"],
  yaml: ["yml", "yaml"],
  json: ["json"],
  markdown: ["md"],
  toml: ["toml"],
  css: ["css"],
};

/** For the simple shapes; null otherwise. */
export function regexToGlobs(regex: string): string[] | null {
  const r = regex.trim();
  let m = /^\^?([\w./-]+)\/$/.exec(r.replace(/\\\//g, "/"));
  if (m) return [`${m[1]}/**`];
  m = /^\\\.(\w+)\$$/.exec(r) ?? /^\.\*\\\.(\w+)\$$/.exec(r);
  if (m) return [`*.${m[1]}`];
  m = /^\\\.\((\w+(?:\|\w+)*)\)\$$/.exec(r);
  if (m) return m[1]!.split("|").map((e) => `*.${e}`);
  m = /^\^([\w-]+(?:\/[\w-]+)*)\/.*\\\.(\w+)\$$/.exec(r);
  if (m) return [`${m[1]}/**/*.${m[2]}`];
  m = /^\^\(([\w-]+(?:\|[\w-]+)*)\)\/$/.exec(r);
  if (m) return m[1]!.split("|").map((d) => `${d}/**`);
  return null;
}

interface Hook {
  id?: string;
  name?: string;
  entry?: string;
  language?: string;
  args?: string[];
  files?: string;
  exclude?: string;
  types?: string[];
  types_or?: string[];
  pass_filenames?: boolean;
  stages?: string[];
}

/** Known hook ids run their tool directly; local hooks run their entry. */
export function fromPreCommit(p: ProjectFiles): Migration {
  const file = p.first(".pre-commit-config.yaml", ".pre-commit-config.yml");
  if (!file) return { found: null, proposals: [], notes: [] };
  const config = (parse(p.text(file) ?? "") ?? {}) as {
    repos?: { repo?: string; hooks?: Hook[] }[];
  };
  const proposals: Proposal[] = [];
  const notes: string[] = [];
  for (const repo of config.repos ?? []) {
    for (const hook of repo.hooks ?? []) {
      const id = hook.id ?? "";
      if (hook.stages && !hook.stages.some((s) => s === "pre-commit" || s === "commit")) {
        notes.push(`${id}: runs at ${hook.stages.join(", ")}, not carried over`);
        continue;
      }
      const known = KNOWN[id];
      const local = repo.repo === "local" && typeof hook.entry === "string";
      if (!known && !local) {
        notes.push(
          `${id} (${repo.repo ?? "?"}): not carried over: cpilot cannot run it without pre-commit's environment`,
        );
        continue;
      }
      const args = (hook.args ?? []).join(" ");
      const passFiles = hook.pass_filenames !== false;
      const base = local
        ? `${hook.entry}${args ? ` ${args}` : ""}${passFiles ? " {files}" : ""}`
        : known!.run.replace(" {files}", `${args ? ` ${args}` : ""} {files}`);
      const exts = [...(hook.types ?? []), ...(hook.types_or ?? [])].flatMap((t) => TYPES[t] ?? []);
      let pattern = (exts.length > 0 ? exts : (known?.exts ?? [])).map((e) => `*.${e}`);
      if (hook.files) {
        const globs = regexToGlobs(hook.files);
        // A folder keeps the hook's file types: "^src/" with python is src/**/*.py.
        if (globs)
          pattern =
            pattern.length > 0
              ? globs.flatMap((g) => (g.endsWith("/**") ? pattern.map((p) => `${g}/${p}`) : [g]))
              : globs;
        else
          notes.push(
            `${id}: files regex ${JSON.stringify(hook.files)} not carried over (the pattern is ${pattern.join(" ") || "*"}; narrow it by hand)`,
          );
      }
      if (hook.exclude) {
        const globs = regexToGlobs(hook.exclude);
        if (globs) pattern.push(...globs.map((g) => `!${g}`));
        else notes.push(`${id}: exclude regex ${JSON.stringify(hook.exclude)} not carried over`);
      }
      proposals.push({
        why: `${file}: ${id}`,
        callback: migrated(nameFrom(id || hook.name || "hook"), pattern, base),
      });
    }
  }
  return { found: file, proposals, notes };
}
