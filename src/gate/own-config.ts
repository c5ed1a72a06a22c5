/**
 * The files that decide what cpilot's gate protects: its config (every name it is found
 * under), the callbacks tools manage beside it, and each agent's hook settings, where the
 * gate itself is wired in. An agent that could write one of them could turn the gate off
 * and then write anything, so by default only a person changes them.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import type * as NodeModule from "node:module";
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { CONFIG_NAMES } from "../config/find.ts";
import { hookFiles } from "../config/hook-files.ts";
import { MANAGED_NAME } from "../config/managed-file.ts";
import { nodeBuiltin } from "../platform/builtin.ts";
import { realOr } from "../util/real-path.ts";
import { skeleton } from "./protected.ts";

const CONFIG_FILES = new Set<string>([...CONFIG_NAMES, MANAGED_NAME]);

/** What the path is, when it is one of those files (any folder, any case), else null. */
export function ownConfigKind(relPath: string): string | null {
  const parts = relPath
    .split(/[/\\]/)
    .filter((s) => s !== "" && s !== ".")
    .map(skeleton);
  const name = parts.at(-1);
  if (name === undefined) return null;
  if (CONFIG_FILES.has(name)) return `cpilot's config (${name})`;
  for (const tail of [parts.slice(-2).join("/"), parts.slice(-3).join("/")]) {
    if (hookFiles().has(tail))
      return `an agent's hook settings (${tail}), which wire in cpilot's gate`;
  }
  return null;
}

/**
 * The files under other names that the root's config files and hook settings lead to,
 * when those are symlinks (or in a symlinked folder): relative to the root in lower case,
 * with what they are. The gate reads the file a link leads to, so it is protected too.
 */
export function linkedOwnFiles(root: string): Map<string, string> {
  const top = resolve(root);
  const inProject = projectPath(top);
  const out = new Map<string, string>();
  for (const name of [...CONFIG_FILES, ...hookFiles()]) {
    const path = join(top, name);
    if (!existsSync(path)) continue;
    const real = realOr(path);
    if (real === path) continue;
    const rel = inProject(real);
    const kind = ownConfigKind(name);
    if (rel !== null && kind !== null) out.set(rel.toLowerCase(), `${kind}, through a symlink`);
  }
  return out;
}

/** Every extension Bun loads as a module (a config may import any of them). */
const SCRIPT_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
const SCRIPT = new Set(SCRIPT_EXTENSIONS);
/**
 * Every module specifier of a static import, export-from, dynamic import, `require()` and
 * TypeScript's `import x = require()`.
 */
const SPECIFIERS = /\b(?:from|import|require)\s*\(?\s*(["'`])([^"'`]*)\1/g;
/** An import or require of a name computed at run time, which no scan can follow. */
const COMPUTED = /\b(?:import|require)\s*\(\s*(?![\s"'`])/;
/** Every string that looks like a relative module path (`"./rules.ts"`). */
const RELATIVE_LITERALS = /(["'`])(\.\.?\/[^"'`\n]*)\1/g;
/** How a specifier may resolve: as written, with an extension, or to a folder's index. */
const SUFFIXES = [
  "",
  ...SCRIPT_EXTENSIONS,
  ".json",
  ...SCRIPT_EXTENSIONS.map((ext) => `/index${ext}`),
  "/index.json",
];
/**
 * The TypeScript sources a `.js`-style specifier also loads (Bun, like tsc, takes
 * `./rules.js` to rules.ts when that exists): `./rules.js` -> `./rules` + these.
 */
const TS_FOR_JS: Record<string, readonly string[]> = {
  ".js": [".ts", ".tsx"],
  ".jsx": [".tsx"],
  ".mjs": [".mts"],
  ".cjs": [".cts"],
};

/** Every name a relative specifier may load: `spec` + each suffix, and its TS sources. */
function candidates(spec: string): string[] {
  const out = SUFFIXES.map((suffix) => spec + suffix);
  const ext = extname(spec);
  for (const ts of TS_FOR_JS[ext] ?? []) out.push(spec.slice(0, -ext.length) + ts);
  return out;
}

/** Most files the import walk reads on one call: a config's own modules are a handful. */
export const MAX_WALKED = 200;
/**
 * What the walk gives back, among the names, when it stopped at MAX_WALKED with files
 * left to read: what those import cannot be known, so every script file is protected.
 */
export const WALK_CUT = "\0walk-cut";

/** True when `relPath` is a module a config could import (a script or JSON file). */
export function isModuleFile(relPath: string): boolean {
  const ext = extname(relPath).toLowerCase();
  return SCRIPT.has(ext) || ext === ".json";
}

/**
 * The files a script config at the root imports, and the files those import, relative to
 * the root, posix separators: changing one changes the config as surely as editing it (an
 * agent that rewrote a module two imports down could empty the rules it exports). Relative
 * imports are followed (each name a specifier may resolve to is protected, so a new file
 * cannot shadow it); a package specifier is resolved as Node would, and the file it leads
 * to is protected when it lies in the project, and followed when it is the project's own
 * code (a workspace package), not an installed package under node_modules. At most
 * MAX_WALKED files are read. A name ending in `/` is a folder, protected with all it holds
 * (an installed package). Read on each call (the config may have changed); [] for a
 * data config.
 */
export function configImports(root: string): string[] {
  // the config of this root: the first name found, as findConfig picks it
  const config = CONFIG_NAMES.map((n) => join(root, n)).find((p) => existsSync(p));
  if (config === undefined) return [];
  // a linked config imports from where it really is, as the runtime resolves it
  return scriptImports(resolve(root), realOr(config));
}

/** What {@link configImports} walks: the files `start` imports, transitively; [] unless a script. */
function scriptImports(top: string, start: string): string[] {
  if (!SCRIPT.has(extname(start))) return [];
  const out = new Set<string>();
  const seen = new Set<string>([start]);
  const queue = [start];
  const inProject = projectPath(top);
  // one realpath per folder: most names a specifier may load share theirs
  const realDirs = new Map<string, string>();
  const realDir = (dir: string): string => {
    const known = realDirs.get(dir);
    if (known !== undefined) return known;
    const real = realOr(dir);
    realDirs.set(dir, real);
    return real;
  };
  // one listing per folder (names in lower case, as a disk may compare them): of the ~30
  // names a specifier may load, only those listed are looked at
  const listings = new Map<string, Set<string> | null>();
  const mayExist = (path: string): boolean => {
    const dir = dirname(path);
    let names = listings.get(dir);
    if (names === undefined) {
      names = null;
      // stat first: a throw per missing folder (`./rules/index.ts`) costs more than the listing
      if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
        try {
          names = new Set(readdirSync(dir).map((n) => n.toLowerCase()));
        } catch {
          names = null;
        }
      }
      listings.set(dir, names);
    }
    return names?.has(basename(path).toLowerCase()) === true;
  };
  const follow = (path: string): void => {
    if (!seen.has(path) && SCRIPT.has(extname(path)) && existsSync(path)) {
      seen.add(path);
      queue.push(path);
    }
  };
  for (let read = 0; queue.length > 0 && read < MAX_WALKED; read++) {
    const file = queue.shift() as string;
    let source: string;
    try {
      source = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    // A computed import may load any relative name the file spells (`const n = "./r.ts"`):
    // each is taken as imported. A name built from pieces is not seen (docs/security.md).
    const specs = [...source.matchAll(SPECIFIERS)].map((m) => m[2] ?? "");
    if (COMPUTED.test(source)) {
      for (const m of source.matchAll(RELATIVE_LITERALS)) specs.push(m[2] ?? "");
    }
    for (const spec of specs) {
      if (spec.startsWith("./") || spec.startsWith("../")) {
        for (const name of candidates(spec)) {
          const target = resolve(dirname(file), name);
          const rel = inProject(target);
          if (rel === null) continue;
          out.add(rel);
          // through a symlinked folder (or file), where it really is can be written too
          const exists = mayExist(target) && existsSync(target);
          // realpath is the walk's dearest call: once per folder, and for a file only when
          // it is a link itself
          const real =
            exists && lstatSync(target).isSymbolicLink()
              ? realOr(target)
              : listings.get(dirname(target))
                ? join(realDir(dirname(target)), basename(target))
                : target;
          const at = real === target ? null : inProject(real);
          if (at !== null) out.add(at);
          if (exists) follow(target);
        }
        continue;
      }
      if (spec === "" || spec === "cpilot" || spec.includes(":") || spec.startsWith("/")) continue;
      // An installed package is protected whole (its package.json names its entry, which
      // may require any file of it), and so is each node_modules folder between the file
      // and the root where the same name would be found first (a new one would shadow it).
      const name = packageName(spec);
      for (let dir = dirname(file); ; dir = dirname(dir)) {
        const folder = inProject(join(dir, "node_modules", name));
        if (folder !== null) out.add(`${folder}/`);
        if (dir === top || dir === dirname(dir) || inProject(dir) === null) break;
      }
      const target = resolvePackage(spec, file);
      const rel = target === null ? null : inProject(target);
      if (target === null || rel === null) continue;
      out.add(rel);
      const realTarget = realOr(target);
      const real = inProject(realTarget);
      if (real !== null) out.add(real);
      const installed = realTarget.lastIndexOf(`${sep}node_modules${sep}`);
      if (installed !== -1) {
        const folder = inProject(join(realTarget.slice(0, installed), "node_modules", name));
        if (folder !== null) out.add(`${folder}/`);
      }
      // Installed packages are not the project's code: protected, not walked.
      if (installed === -1) follow(target);
    }
  }
  if (queue.length > 0) out.add(WALK_CUT);
  return [...out];
}

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
function packageName(spec: string): string {
  const parts = spec.split("/");
  return (spec.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

/** Where `spec` imported from `from` resolves, as Node resolves it; null when it does not. */
function resolvePackage(spec: string, from: string): string | null {
  try {
    const { createRequire } = nodeBuiltin<typeof NodeModule>("node:module");
    return createRequire(from).resolve(spec);
  } catch {
    return null;
  }
}

/**
 * The files the gate's command plugins run, and its plugins folder, relative to the root:
 * a plugin is the gate deciding, so an agent that rewrote one (or dropped a new one into the
 * folder) could allow anything. Each word of a plugin's command that names a file in the
 * project (`./policy.sh`, `python3 scripts/policy.py`, `cd scripts && ./policy.sh`,
 * `"$CP_ROOT/policy.sh"`, `--import=./pre.mjs`), where it really is too (a symlink), and
 * the files a script one imports. The default folder is inside `.cpilot/`, protected on its
 * own; a folder of the user's own is protected as named and where it really is.
 */
export function gatePluginFiles(
  root: string,
  gate: { readonly plugins: readonly unknown[]; readonly pluginsDir: string | false },
): { files: string[]; folders: string[] } {
  const top = resolve(root);
  const inProject = projectPath(top);
  const files = new Set<string>();
  const folders = new Set<string>();
  for (const plugin of gate.plugins) {
    const words = commandWords((plugin as { command?: unknown }).command, top);
    // `cd scripts && ./p.sh`: a word may be taken from any folder the command names
    const bases = [top, ...words.map((w) => resolve(top, w)).filter((p) => isDir(p))];
    for (const word of words) {
      for (const base of bases) {
        const path = resolve(base, word);
        if (!isFile(path)) continue;
        const rels = [inProject(path), inProject(realOr(path))].filter((r) => r !== null);
        if (rels.length === 0) continue;
        for (const rel of rels) files.add(rel);
        for (const imported of scriptImports(top, realOr(path))) {
          if (imported.endsWith("/")) folders.add(imported.slice(0, -1));
          else files.add(imported);
        }
      }
    }
  }
  if (gate.pluginsDir !== false) {
    const dir = resolve(top, gate.pluginsDir);
    for (const at of [dir, realOr(dir)]) {
      const rel = inProject(at);
      if (rel !== null) folders.add(rel);
    }
  }
  return { files: [...files], folders: [...folders] };
}

/** Shell operators and redirections a name may be glued to (`p.sh;`, `<p.sh`). */
const SHELL_SPLIT = /[\s;&|<>()`]+/;

/**
 * Every word of a plugin's command that may name a file, over-counting rather than missing
 * one (a word that names no file protects nothing): for a shell string (or an argv word
 * holding one, `sh -c "./p.sh x"`), its words split at blanks and shell operators with
 * quotes dropped, each quoted part whole (`'./my p.sh'`), the value of each `--opt=value`,
 * and `$CP_ROOT`/`$PWD` taken as the root (the plugin runs there with CP_ROOT set).
 */
function commandWords(command: unknown, root: string): string[] {
  const parts =
    typeof command === "string"
      ? [command]
      : Array.isArray(command)
        ? command.filter((w): w is string => typeof w === "string")
        : [];
  const words = new Set<string>();
  for (const part of parts) {
    words.add(part);
    const text = part.replace(/\$\{?(?:CP_ROOT|PWD)\}?/g, root);
    for (const quoted of text.matchAll(/'([^']*)'|"([^"]*)"/g))
      words.add(quoted[1] ?? quoted[2] ?? "");
    for (const word of text.replace(/["'\\]/g, "").split(SHELL_SPLIT)) {
      words.add(word);
      const value = word.slice(word.lastIndexOf("=") + 1);
      if (value !== word) words.add(value);
    }
  }
  // `python3 -m pkg.mod`, `node policy`: a module named without its file
  for (const word of [...words]) {
    if (word.includes("/") || word.includes(".") === false) {
      for (const ext of [".py", ...SCRIPT_EXTENSIONS]) words.add(word + ext);
    }
    if (/^[\w.]+$/.test(word)) {
      const module = word.replaceAll(".", "/");
      for (const tail of [".py", "/__main__.py", "/__init__.py"]) words.add(module + tail);
    }
  }
  return [...words].filter((w) => w !== "" && !w.startsWith("-"));
}

/** The path relative to the project root `top` (posix), as named or where it really is; null outside. */
export function projectPath(top: string): (path: string) => string | null {
  const realTop = realOr(top);
  const under = (base: string, at: string): string | null => {
    const rel = relative(base, at);
    return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)
      ? rel.split(sep).join("/")
      : null;
  };
  // realpath only when the path as named is not inside: it is the walk's dearest call
  return (path) => under(top, path) ?? under(realTop, realOr(path));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
