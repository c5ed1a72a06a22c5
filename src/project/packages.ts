import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runGit, splitNul } from "../match/git.ts";
import { walkFiles } from "../match/walk.ts";
import { stripJsonComments } from "../util/json-comments.ts";
import { memberGlob } from "./_glob.ts";
import { hasTomlSection, tomlStrings } from "./_toml.ts";
import { ownFiles } from "./not-own.ts";

export type PackageKind = "node" | "rust" | "go" | "python" | "deno";

export interface ProjectPackage {
  readonly dir: string;
  readonly kind: PackageKind;
  /** The workspace that lists it, or its own manifest. */
  readonly why: string;
}

/** A manifest that is not the project's package (a fixture, a crate outside the workspace). */
export interface LeftPackage {
  readonly dir: string;
  readonly kind: PackageKind;
  readonly why: string;
}

export interface ProjectShape {
  readonly packages: readonly ProjectPackage[];
  readonly left: readonly LeftPackage[];
}

const MANIFESTS: ReadonlyMap<string, PackageKind> = new Map([
  ["package.json", "node"],
  ["Cargo.toml", "rust"],
  ["go.mod", "go"],
  ["pyproject.toml", "python"],
  ["deno.json", "deno"],
  ["deno.jsonc", "deno"],
]);

/** Why a package.json folder outside every npm, pnpm, yarn or bun workspace is left out. */
export const NO_WORKSPACE_LISTS_IT = "no workspace lists it";

const SAMPLE_DIRS = new Set(["testdata", "fixtures", "__fixtures__", "examples", "example"]);

/**
 * The project's packages below `root`: npm/pnpm/yarn/bun workspace members, Cargo workspace
 * members, every Go module, Python projects with their own pyproject.toml, Deno workspace
 * members. A manifest no
 * workspace lists (a fixture, an excluded crate) is in `left`, with why.
 */
export function projectShape(root: string): ProjectShape {
  const byKind = new Map<PackageKind | "nx", string[]>();
  for (const path of manifests(root)) {
    const slash = path.lastIndexOf("/");
    const name = path.slice(slash + 1);
    const kind = name === "project.json" ? "nx" : MANIFESTS.get(name);
    if (kind === undefined) continue;
    const dir = slash === -1 ? "" : path.slice(0, slash);
    byKind.set(kind, [...(byKind.get(kind) ?? []), dir]);
  }
  const packages: ProjectPackage[] = [];
  const left: LeftPackage[] = [];
  const read = (path: string): string => {
    try {
      return readFileSync(join(root, path), "utf8");
    } catch {
      return "";
    }
  };
  node(byKind.get("node") ?? [], read, packages, left);
  if (read("nx.json") !== "") nxProjects(byKind.get("nx") ?? [], packages, left);
  rust(byKind.get("rust") ?? [], read, packages, left);
  const work = goWorkUses(read("go.work"));
  for (const dir of byKind.get("go") ?? []) {
    if (dir.split("/").some((part) => part === "testdata" || part === "vendor"))
      left.push({ dir, kind: "go", why: "test data or vendored: go ./... skips it" });
    else if (work !== undefined && !work.has(dir))
      left.push({
        dir,
        kind: "go",
        why: "not in go.work's use list: go commands there fail in workspace mode",
      });
    else packages.push({ dir, kind: "go", why: dir === "" ? "go.mod" : `its own go.mod` });
  }
  python(byKind.get("python") ?? [], read, packages, left);
  deno([...new Set(byKind.get("deno") ?? [])], read, packages, left);
  packages.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
  return { packages, left };
}

type Read = (path: string) => string;

function node(dirs: readonly string[], read: Read, out: ProjectPackage[], left: LeftPackage[]) {
  if (dirs.length === 0) return;
  const rootPkg = dirs.includes("") ? parseJson(read("package.json")) : undefined;
  const globs = [...npmWorkspaces(rootPkg), ...pnpmWorkspaces(read("pnpm-workspace.yaml"))];
  const where =
    read("pnpm-workspace.yaml") !== "" ? "pnpm-workspace.yaml" : '"workspaces" in package.json';
  const member = members(globs);
  for (const dir of dirs) {
    if (dir === "") out.push({ dir, kind: "node", why: "package.json" });
    else if (member(dir)) out.push({ dir, kind: "node", why: `a workspace of ${where}` });
    else left.push({ dir, kind: "node", why: NO_WORKSPACE_LISTS_IT });
  }
}

function rust(dirs: readonly string[], read: Read, out: ProjectPackage[], left: LeftPackage[]) {
  if (dirs.length === 0) return;
  const manifest = dirs.includes("") ? read("Cargo.toml") : "";
  const member = members([
    ...tomlStrings(manifest, "workspace", "members"),
    ...tomlStrings(manifest, "workspace", "exclude").map((e) => `!${e}`),
  ]);
  for (const dir of dirs) {
    if (dir === "") out.push({ dir, kind: "rust", why: "Cargo.toml" });
    else if (member(dir)) out.push({ dir, kind: "rust", why: "a member of the Cargo workspace" });
    else
      left.push({
        dir,
        kind: "rust",
        why: "a crate outside the Cargo workspace (not in its members)",
      });
  }
}

function python(dirs: readonly string[], read: Read, out: ProjectPackage[], left: LeftPackage[]) {
  const rootToml = dirs.includes("") ? read("pyproject.toml") : "";
  const uv = members([
    ...tomlStrings(rootToml, "tool.uv.workspace", "members"),
    ...tomlStrings(rootToml, "tool.uv.workspace", "exclude").map((e) => `!${e}`),
  ]);
  for (const dir of dirs) {
    if (dir === "") {
      out.push({ dir, kind: "python", why: "pyproject.toml" });
      continue;
    }
    if (uv(dir)) {
      out.push({ dir, kind: "python", why: "a member of the uv workspace" });
      continue;
    }
    const text = read(`${dir}/pyproject.toml`);
    const own = hasTomlSection(text, "project") || hasTomlSection(text, "tool.poetry");
    if (own && !dir.split("/").some((p) => SAMPLE_DIRS.has(p) || p === "tests"))
      out.push({ dir, kind: "python", why: "its own pyproject.toml" });
    else
      left.push({ dir, kind: "python", why: own ? "test data or a sample" : "no [project] table" });
  }
}

/** deno.json's `workspace`: the member folders, as an array or `{ members: [...] }`. */
function deno(dirs: readonly string[], read: Read, out: ProjectPackage[], left: LeftPackage[]) {
  if (dirs.length === 0) return;
  const config = parseJson(stripJsonComments(read("deno.json") || read("deno.jsonc")));
  const ws = (config as { workspace?: unknown } | undefined)?.workspace;
  const list = Array.isArray(ws) ? ws : (ws as { members?: unknown } | undefined)?.members;
  const member = members(
    Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [],
  );
  for (const dir of dirs) {
    if (dir === "") out.push({ dir, kind: "deno", why: "deno.json" });
    else if (member(dir)) out.push({ dir, kind: "deno", why: "a member of the Deno workspace" });
    else left.push({ dir, kind: "deno", why: "no Deno workspace lists it" });
  }
}

/** An nx workspace's projects: each folder with a project.json (nx's libs/ are often no npm workspace). */
function nxProjects(dirs: readonly string[], out: ProjectPackage[], left: LeftPackage[]) {
  for (const dir of dirs) {
    if (dir === "" || out.some((p) => p.dir === dir && p.kind === "node")) continue;
    const at = left.findIndex((l) => l.dir === dir && l.kind === "node");
    if (at !== -1) left.splice(at, 1);
    if (dir.split("/").some((part) => SAMPLE_DIRS.has(part)))
      left.push({ dir, kind: "node", why: "test data or a sample" });
    else out.push({ dir, kind: "node", why: "an nx project (project.json)" });
  }
}

function members(patterns: readonly string[]): (dir: string) => boolean {
  const include = patterns.filter((p) => !p.startsWith("!")).map(memberGlob);
  const exclude = patterns.filter((p) => p.startsWith("!")).map((p) => memberGlob(p.slice(1)));
  return (dir) => include.some((m) => m(dir)) && !exclude.some((m) => m(dir));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** package.json's `workspaces`: an array, or `{ packages: [...] }` (yarn). */
function npmWorkspaces(pkg: unknown): string[] {
  if (typeof pkg !== "object" || pkg === null) return [];
  const ws = (pkg as { workspaces?: unknown }).workspaces;
  const list = Array.isArray(ws) ? ws : (ws as { packages?: unknown } | undefined)?.packages;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
}

/** The module folders a go.work `use`s (root-relative), or undefined without one. */
function goWorkUses(text: string): Set<string> | undefined {
  if (text === "") return undefined;
  const out = new Set<string>();
  let block = false;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\/\/.*$/, "").trim();
    if (block && line === ")") block = false;
    else if (line === "use (") block = true;
    else {
      const path = block ? line : /^use\s+(\S+)$/.exec(line)?.[1];
      if (path === undefined || path === "") continue;
      const dir = path
        .replace(/^"|"$/g, "")
        .replace(/^\.\/?/, "")
        .replace(/\/+$/, "");
      out.add(dir);
    }
  }
  return out;
}

function pnpmWorkspaces(text: string): string[] {
  const out: string[] = [];
  let inPackages = false;
  for (const raw of text.split("\n")) {
    if (/^packages\s*:/.test(raw)) {
      inPackages = true;
      continue;
    }
    if (inPackages && /^\S/.test(raw)) break;
    const item = inPackages ? /^\s*-\s*["']?([^"'#]+?)["']?\s*(?:#.*)?$/.exec(raw) : null;
    if (item) out.push(item[1]!);
  }
  return out;
}

function manifests(root: string): string[] {
  const r = runGit(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
  const all = r.ok ? splitNul(r.stdout) : walkFiles(root);
  const named = all.filter((p) => {
    const name = p.slice(p.lastIndexOf("/") + 1);
    return MANIFESTS.has(name) || name === "project.json";
  });
  return [...new Set(ownFiles(root, named, (p) => p).own)];
}
