import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { STATE_DIR } from "../util/state-layout.ts";

/** Names only, no file contents. */
export interface ProjectContext {
  readonly toolchainFiles: readonly string[];
  /** Folders end in `/`; sorted, at most {@link MAX_ENTRIES}. */
  readonly topLevel: readonly string[];
  readonly truncated: boolean;
  /** At most 30. */
  readonly scripts: readonly string[];
  /** At most 30. */
  readonly makeTargets: readonly string[];
  /** In the config and the managed file. */
  readonly callbackNames: readonly string[];
}

export const MAX_ENTRIES = 80;

const TOOLCHAIN = [
  /^Cargo\.toml$/,
  /^package\.json$/,
  /^(?:bun\.lockb?|pnpm-lock\.yaml|yarn\.lock|package-lock\.json)$/,
  /^tsconfig(?:\.[\w-]+)?\.json$/,
  /^(?:deno\.jsonc?|biome\.jsonc?)$/,
  /^(?:\.eslintrc(?:\.\w+)?|eslint\.config\.\w+)$/,
  /^(?:\.prettierrc(?:\.\w+)?|prettier\.config\.\w+)$/,
  /^(?:pyproject\.toml|requirements(?:-\w+)?\.txt|setup\.py|setup\.cfg|ruff\.toml|mypy\.ini)$/,
  /^(?:go\.mod|go\.work)$/,
  /^(?:Makefile|GNUmakefile|justfile|Taskfile\.ya?ml)$/,
  /^(?:Dockerfile(?:\..+)?|docker-compose\.ya?ml|compose\.ya?ml)$/,
  /^\.?(?:shellcheckrc|hadolint\.ya?ml)$/,
  /\.tf$/,
  /^(?:CMakeLists\.txt|build\.gradle(?:\.kts)?|pom\.xml|Gemfile|mix\.exs|composer\.json)$/,
];

const SKIP = new Set([".git", "node_modules", STATE_DIR]);

function readJsonScripts(root: string): string[] {
  try {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      scripts?: Record<string, unknown>;
    };
    return Object.keys(pkg.scripts ?? {}).slice(0, 30);
  } catch {
    return [];
  }
}

function readMakeTargets(root: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(root, "Makefile"), "utf8");
  } catch {
    return [];
  }
  const targets = new Set<string>();
  for (const m of text.matchAll(/^([A-Za-z0-9][\w.-]*)\s*:(?!=)/gm)) targets.add(m[1]!);
  return [...targets].slice(0, 30);
}

/** Bounded, names only. */
export function gatherContext(root: string, callbackNames: readonly string[]): ProjectContext {
  let entries: { name: string; dir: boolean }[] = [];
  try {
    entries = readdirSync(root, { withFileTypes: true })
      .filter((e) => !SKIP.has(e.name))
      .map((e) => ({ name: e.name, dir: e.isDirectory() }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    // an unreadable root just gives the model less to go on
  }
  return {
    toolchainFiles: entries
      .filter((e) => !e.dir && TOOLCHAIN.some((re) => re.test(e.name)))
      .map((e) => e.name),
    topLevel: entries.slice(0, MAX_ENTRIES).map((e) => (e.dir ? `${e.name}/` : e.name)),
    truncated: entries.length > MAX_ENTRIES,
    scripts: readJsonScripts(root),
    makeTargets: readMakeTargets(root),
    callbackNames: [...callbackNames],
  };
}
