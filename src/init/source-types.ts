import { dirname, join, relative } from "node:path";
import {
  initWroteSettings,
  ownTsconfigText,
  SOURCE_TSCONFIG,
  unmarkedTsconfigText,
  writtenByInit,
} from "./own-tsconfig.ts";
import { ProjectFiles } from "./project-files.ts";

export interface BuiltTypesRead {
  readonly name: string;
  /** Relative to the project root. */
  readonly dir: string;
  /** `dist/index.d.ts`, relative to its folder. */
  readonly types: string;
  /** `src/index.ts`, relative to its folder. */
  readonly entry: string;
}

export interface SourceTypes {
  readonly reads: readonly BuiltTypesRead[];
  readonly file?: { readonly path: string; readonly text: string };
  readonly why?: string;
}

const ENTRIES = ["src/index.ts", "src/index.tsx", "src/index.mts", "lib/index.ts"];

/**
 * Workspace siblings whose types point at a build output while their source is beside it:
 * tsc reads stale declarations, so a rename in the sibling breaks the package unseen. The
 * answer is a tsconfig extending the package's own that maps them to their source.
 */
export function sourceTypes(
  root: string,
  dir: string,
  nodeDirs: readonly string[],
): SourceTypes | undefined {
  const p = new ProjectFiles(join(root, dir), root);
  const siblings = new Map<string, { read: BuiltTypesRead | null; deps: string[] }>();
  for (const other of nodeDirs) {
    if (other === dir) continue;
    const q = new ProjectFiles(join(root, other), root);
    const json = q.packageJson() as Record<string, unknown>;
    if (typeof json.name !== "string" || siblings.has(json.name)) continue;
    const types = declaredTypes(json);
    const entry = ENTRIES.find((e) => q.has(e));
    const built = types !== undefined && /\.d\.[mc]?ts$/.test(types);
    siblings.set(json.name, {
      read:
        built && entry !== undefined
          ? { name: json.name, dir: other, types: types.replace(/^\.\//, ""), entry }
          : null,
      deps: dependencyNames(json),
    });
  }
  // A sibling's source imports its own siblings, which tsc resolves with this package's
  // paths only: each must be mapped too, or it is read from a build that may not exist.
  const reads: BuiltTypesRead[] = [];
  const seen = new Set<string>();
  const queue = dependencyNames(p.packageJson() as Record<string, unknown>);
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const sibling = siblings.get(name);
    if (seen.has(name) || sibling?.read == null) continue;
    seen.add(name);
    reads.push(sibling.read);
    queue.push(...sibling.deps);
  }
  if (reads.length === 0) return undefined;
  const existing = p.text(SOURCE_TSCONFIG);
  const chain = tsconfigChain(p);
  if (chain.some((c) => c.paths || c.baseUrl))
    return { reads, why: "its tsconfig maps paths itself; left as it is" };
  const toPackage = (d: string) => relative(join(root, dir), join(root, d)) || ".";
  const paths: Record<string, string[]> = {};
  for (const r of reads) {
    const src = `${toPackage(r.dir)}/${r.entry}`;
    paths[r.name] = [src];
    paths[`${r.name}/*`] = [`${toPackage(r.dir)}/${dirname(r.entry)}/*`];
  }
  const body = {
    extends: "./tsconfig.json",
    compilerOptions: {
      noEmit: true,
      composite: false,
      incremental: false,
      rootDir: toPackage(""),
      paths,
    },
  };
  const kept = existing === undefined ? null : initWroteSettings(existing);
  // the same settings, laid out by the project's formatter: kept as they are
  const text =
    kept !== null && plain(kept) === plain(body) ? (existing as string) : ownTsconfigText(body);
  // init's own file (as written, or as an earlier init wrote this same one) is replaced
  const ours =
    existing === undefined || writtenByInit(existing) || existing === unmarkedTsconfigText(body);
  if (!ours)
    return {
      reads,
      why: `${dir}/${SOURCE_TSCONFIG} exists and is not as cpilot init wrote it; left as it is`,
    };
  return { reads, file: { path: join(dir, SOURCE_TSCONFIG), text } };
}

/**
 * Where tsc reads a package's types: `types` (or `typings`), else what `exports` gives for
 * the package itself under the `types` condition (`"exports": {".": {"types": …}}`, which
 * packages built by tsdown or tsup often declare alone).
 */
function declaredTypes(pkg: Record<string, unknown>): string | undefined {
  for (const key of ["types", "typings"]) if (typeof pkg[key] === "string") return pkg[key];
  const exports = pkg.exports;
  if (exports === null || typeof exports !== "object" || Array.isArray(exports)) return undefined;
  const map = exports as Record<string, unknown>;
  const main = Object.keys(map).some((k) => k.startsWith(".")) ? map["."] : map;
  return typesCondition(main, 0);
}

/** The `types` condition, at the top or under another condition (`import`, `require`). */
function typesCondition(value: unknown, depth: number): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value) || depth > 3)
    return undefined;
  const conditions = value as Record<string, unknown>;
  if (typeof conditions.types === "string") return conditions.types;
  for (const inner of Object.values(conditions)) {
    const found = typesCondition(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

const plain = (value: unknown): string => JSON.stringify(value);

function dependencyNames(pkg: Record<string, unknown>): string[] {
  return ["dependencies", "devDependencies", "peerDependencies"].flatMap((k) => {
    const deps = pkg[k];
    return deps !== null && typeof deps === "object" ? Object.keys(deps) : [];
  });
}

/** tsc reads their source (an nx workspace's `@lerna/core` → `libs/core/src/index.ts`), so an edit there can break the package. */
export function pathsFolders(root: string, dir: string): string[] {
  const chain = tsconfigChain(new ProjectFiles(join(root, dir), root));
  const declared = chain.find((c) => c.paths !== undefined && typeof c.paths === "object");
  if (declared === undefined) return [];
  const withBase = chain.find((c) => typeof c.baseUrl === "string");
  const base =
    withBase !== undefined ? join(withBase.dir, withBase.baseUrl as string) : declared.dir;
  const folders = new Set<string>();
  for (const targets of Object.values(declared.paths as Record<string, unknown>)) {
    if (!Array.isArray(targets)) continue;
    for (const target of targets) {
      if (typeof target !== "string") continue;
      const abs = join(base, target.replace(/\*.*$/, ""));
      const folder = relative(root, target.includes("*") ? abs : dirname(abs));
      if (folder.startsWith("..") || folder === "") continue;
      if (dir !== "" && (folder === dir || folder.startsWith(`${dir}/`))) continue;
      folders.add(folder.replace(/\/+$/, ""));
    }
  }
  return [...folders].sort();
}

interface ChainLink {
  readonly paths?: unknown;
  readonly baseUrl?: unknown;
  readonly dir: string;
}

/** Nearest first. */
function tsconfigChain(p: ProjectFiles): ChainLink[] {
  const out: ChainLink[] = [];
  let file: string | undefined = join(p.root, "tsconfig.json");
  for (let i = 0; file !== undefined && i < 8; i++) {
    const json = new ProjectFiles(dirname(file)).json(relative(dirname(file), file)) as
      | { extends?: unknown; compilerOptions?: { paths?: unknown; baseUrl?: unknown } }
      | undefined;
    if (json === undefined) break;
    out.push({ ...json.compilerOptions, dir: dirname(file) });
    const next: unknown = json.extends;
    file =
      typeof next === "string" && next.startsWith(".")
        ? join(dirname(file), next.endsWith(".json") ? next : `${next}.json`)
        : undefined;
  }
  return out;
}
