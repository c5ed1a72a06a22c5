import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { stripJsonComments } from "../util/json-comments.ts";

/** Read-only, relative to the package's folder, never throwing. `top`: the whole project's root, where tools may be installed. */
export class ProjectFiles {
  constructor(
    readonly root: string,
    readonly top: string = root,
  ) {}

  /**
   * Its own node_modules/.bin copy, else the nearest one up to the root (hoisted), else where
   * the package manager will put it once installed ({@link binFolderOnceInstalled}).
   */
  localBin(bin: string): string {
    return this.localCommand(bin).join(" ");
  }

  /**
   * {@link localBin} as argv words. Under Yarn's Plug'n'Play there is no node_modules/.bin:
   * `yarn <bin>` runs the package's command, as the project's own scripts do.
   */
  localCommand(bin: string): string[] {
    for (let dir = this.root; ; dir = dirname(dir)) {
      const path = join(dir, "node_modules", ".bin", bin);
      if (existsSync(path)) return [relative(this.root, path)];
      if (dir === this.top || dirname(dir) === dir || !dir.startsWith(this.top)) break;
    }
    if (plugAndPlay(new ProjectFiles(this.top))) return ["yarn", bin];
    const folder = relative(this.root, binFolderOnceInstalled(this, BIN_PACKAGE[bin] ?? bin));
    return [folder === "" ? `node_modules/.bin/${bin}` : `${folder}/node_modules/.bin/${bin}`];
  }

  has(path: string): boolean {
    return existsSync(join(this.root, path));
  }

  first(...paths: string[]): string | undefined {
    return paths.find((p) => this.has(p));
  }

  /** As installed (nearest node_modules up to the root), else as its dependency range asks. */
  majorVersion(name: string): number | undefined {
    for (let dir = this.root; ; dir = dirname(dir)) {
      const pkg = this.textAt(join(dir, "node_modules", name, "package.json"));
      const installed = pkg === undefined ? undefined : /"version"\s*:\s*"(\d+)\./.exec(pkg);
      if (installed) return Number(installed[1]);
      if (dir === this.top || dirname(dir) === dir || !dir.startsWith(this.top)) break;
    }
    const deps = this.packageJson();
    const range = deps.devDependencies?.[name] ?? deps.dependencies?.[name];
    const declared = range === undefined ? null : /(\d+)/.exec(range);
    return declared ? Number(declared[1]) : undefined;
  }

  text(path: string): string | undefined {
    return this.textAt(join(this.root, path));
  }

  /** Below `top`. */
  textAt(abs: string): string | undefined {
    try {
      return readFileSync(abs, "utf8");
    } catch {
      return undefined;
    }
  }

  /** JSON with comments and trailing commas too. */
  json(path: string): unknown {
    const text = this.text(path);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(stripJsonComments(text));
    } catch {
      return undefined;
    }
  }

  /** {} when there is none. */
  packageJson(): PackageJson {
    const value = this.json("package.json");
    return typeof value === "object" && value !== null ? (value as PackageJson) : {};
  }

  hasDepHereOrAtTop(name: string): boolean {
    return this.hasDep(name) || new ProjectFiles(this.top).hasDep(name);
  }

  /** Any dependency section. */
  hasDep(name: string): boolean {
    const pkg = this.packageJson();
    return [pkg.dependencies, pkg.devDependencies, pkg.optionalDependencies].some(
      (deps) => deps !== undefined && name in deps,
    );
  }
}

/**
 * Yarn 2+ installs with Plug'n'Play unless `.yarnrc.yml` names another linker: its `.pnp.cjs`
 * once installed, or a `.yarnrc.yml` (Yarn 1 reads `.yarnrc`) without `nodeLinker:
 * node-modules` or `pnpm` in a fresh clone.
 */
function plugAndPlay(top: ProjectFiles): boolean {
  if (top.first(".pnp.cjs", ".pnp.js") !== undefined) return true;
  const rc = top.text(".yarnrc.yml");
  if (rc === undefined) return false;
  const linker = /^nodeLinker\s*:\s*["']?([\w-]+)/m.exec(rc)?.[1];
  return linker === undefined || linker === "pnp";
}

/** The npm package of a tool whose command has another name. */
const BIN_PACKAGE: Readonly<Record<string, string>> = {
  tsc: "typescript",
  tsgo: "@typescript/native-preview",
  biome: "@biomejs/biome",
};

/**
 * The folder whose node_modules/.bin will hold `pkg`'s command. pnpm, and bun with its
 * isolated linker, link a command only into the folders that depend on its package (a package
 * gets none of the root's); npm, yarn and bun otherwise hoist it to the root, unless the
 * package asks for another version than the root's.
 */
function binFolderOnceInstalled(p: ProjectFiles, pkg: string): string {
  if (p.root === p.top) return p.root;
  const range = (dir: string): string | undefined => {
    const json = new ProjectFiles(dir, p.top).packageJson();
    return (
      json.devDependencies?.[pkg] ?? json.dependencies?.[pkg] ?? json.optionalDependencies?.[pkg]
    );
  };
  const top = new ProjectFiles(p.top);
  const pnpm =
    top.first("pnpm-workspace.yaml", "pnpm-lock.yaml") !== undefined ||
    top.packageJson().packageManager?.startsWith("pnpm@") === true;
  if (pnpm || bunIsolated(top)) {
    for (let dir = p.root; ; dir = dirname(dir)) {
      if (range(dir) !== undefined) return dir;
      if (dir === p.top || dirname(dir) === dir || !dir.startsWith(p.top)) return p.root;
    }
  }
  const own = range(p.root);
  if (own === undefined) return range(p.top) === undefined ? p.root : p.top;
  return range(p.top) === undefined || range(p.top) === own ? p.top : p.root;
}

/** bunfig.toml's `[install] linker = "isolated"`: bun links commands as pnpm does. */
function bunIsolated(top: ProjectFiles): boolean {
  const text = top.text("bunfig.toml");
  if (text === undefined) return false;
  const install = /^\s*\[install\]\s*$([\s\S]*?)(?=^\s*\[|(?![\s\S]))/m.exec(text)?.[1] ?? "";
  return /^\s*linker\s*=\s*["']isolated["']/m.test(install);
}

export interface PackageJson {
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  prettier?: unknown;
  xo?: unknown;
  eslintConfig?: unknown;
  packageManager?: string;
}

/** Enough to see which tools are configured: a TOML parser is more than init needs. */
export function iniSections(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let current = new Map<string, string>();
  sections.set("", current);
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      current = sections.get(header[1]!) ?? new Map();
      sections.set(header[1]!, current);
      continue;
    }
    const kv = /^([A-Za-z0-9_.-]+)\s*[=:]\s*(.*)$/.exec(line);
    if (kv) current.set(kv[1]!, kv[2]!.replace(/^["']|["']$/g, ""));
  }
  return sections;
}
