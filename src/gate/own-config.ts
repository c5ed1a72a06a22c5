/**
 * The files that decide what the gate protects: its config, the callbacks tools' files
 * beside it, and each agent's hook settings. An agent that could write one could turn the
 * gate off, so by default only a person changes them.
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

/** Any folder, any case. */
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

/** Where the root's config files and hook settings lead when they are symlinks: the gate reads those, so they are protected too. */
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

/** A config may import any of them. */
const SCRIPT_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
const SCRIPT = new Set(SCRIPT_EXTENSIONS);
/** Static import, export-from, dynamic import, `require()` and `import x = require()`. */
const SPECIFIERS = /\b(?:from|import|require)\s*\(?\s*(["'`])([^"'`]*)\1/g;
/** A name computed at run time, which no scan can follow. */
const COMPUTED = /\b(?:import|require)\s*\(\s*(?![\s"'`])/;
const RELATIVE_LITERALS = /(["'`])(\.\.?\/[^"'`\n]*)\1/g;
const SUFFIXES = [
  "",
  ...SCRIPT_EXTENSIONS,
  ".json",
  ...SCRIPT_EXTENSIONS.map((ext) => `/index${ext}`),
  "/index.json",
];
/** Bun, like tsc, takes `./rules.js` to rules.ts when that exists. */
const TS_FOR_JS: Record<string, readonly string[]> = {
  ".js": [".ts", ".tsx"],
  ".jsx": [".tsx"],
  ".mjs": [".mts"],
  ".cjs": [".cts"],
};

function candidates(spec: string): string[] {
  const out = SUFFIXES.map((suffix) => spec + suffix);
  const ext = extname(spec);
  for (const ts of TS_FOR_JS[ext] ?? []) out.push(spec.slice(0, -ext.length) + ts);
  return out;
}

/** A config's own modules are a handful. */
export const MAX_WALKED = 200;
/** Returned among the names when the walk stopped with files left: then every script file is protected. */
export const WALK_CUT = "\0walk-cut";

export function isModuleFile(relPath: string): boolean {
  const ext = extname(relPath).toLowerCase();
  return SCRIPT.has(ext) || ext === ".json";
}

/**
 * The files a root script config imports, transitively (posix, relative to the root):
 * changing one changes the config. Every name a relative specifier may resolve to is
 * protected, so a new file cannot shadow it; a package specifier resolves as Node would,
 * and the project's own packages are followed while an installed one is protected whole
 * (a name ending in `/`). At most MAX_WALKED files are read; [] for a data config.
 */
export function configImports(root: string): string[] {
  // the config of this root: the first name found, as findConfig picks it
  const config = CONFIG_NAMES.map((n) => join(root, n)).find((p) => existsSync(p));
  if (config === undefined) return [];
  // a linked config imports from where it really is, as the runtime resolves it
  return scriptImports(resolve(root), realOr(config));
}

/** [] unless a script. */
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
  // one listing per folder (names lower-cased, as a disk may compare them)
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
    // A computed import may load any relative name the file spells: each is taken as imported.
    // A name built from pieces is not seen (docs/security.md).
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
          // realpath is costly: once per folder, and for a file only when it is a link itself
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
      // An installed package is protected whole (its entry may require any file of it), and so
      // is each node_modules between the file and the root where the name would be found first.
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

/** `@scope/name` or `name`, without a subpath. */
function packageName(spec: string): string {
  const parts = spec.split("/");
  return (spec.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

/** null when it does not resolve. */
function resolvePackage(spec: string, from: string): string | null {
  try {
    const { createRequire } = nodeBuiltin<typeof NodeModule>("node:module");
    return createRequire(from).resolve(spec);
  } catch {
    return null;
  }
}

/**
 * A plugin is the gate deciding, so an agent that rewrote one (or dropped one into the
 * folder) could allow anything: every word of a plugin's command that names a project
 * file (as named and where it really is), the files a script one imports, and the plugins
 * folder (the default one is inside `.cpilot/`, protected on its own).
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

/** A name may be glued to them (`p.sh;`, `<p.sh`). */
const SHELL_SPLIT = /[\s;&|<>()`]+/;

/**
 * Over-counting rather than missing one (a word that names no file protects nothing):
 * shell words with quotes dropped, each `--opt=value`'s value, and `$CP_ROOT`/`$PWD` as
 * the root (the plugin runs there).
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

/** Posix, as named or where it really is; null outside. */
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
