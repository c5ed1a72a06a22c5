import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Read-only access to the project's files, relative to its root, never throwing. */
export class ProjectFiles {
  constructor(readonly root: string) {}

  /** True when the path exists under the root. */
  has(path: string): boolean {
    return existsSync(join(this.root, path));
  }

  /** The first of `paths` that exists, or undefined. */
  first(...paths: string[]): string | undefined {
    return paths.find((p) => this.has(p));
  }

  /** The file's text, or undefined when it cannot be read. */
  text(path: string): string | undefined {
    try {
      return readFileSync(join(this.root, path), "utf8");
    } catch {
      return undefined;
    }
  }

  /** A JSON (or JSON with comments and trailing commas) file's value, or undefined. */
  json(path: string): unknown {
    const text = this.text(path);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(stripJsonComments(text));
    } catch {
      return undefined;
    }
  }

  /** package.json as an object ({} when there is none). */
  packageJson(): PackageJson {
    const value = this.json("package.json");
    return typeof value === "object" && value !== null ? (value as PackageJson) : {};
  }

  /** True when package.json lists the package in any dependency section. */
  hasDep(name: string): boolean {
    const pkg = this.packageJson();
    return [pkg.dependencies, pkg.devDependencies, pkg.optionalDependencies].some(
      (deps) => deps !== undefined && name in deps,
    );
  }
}

/** The package.json fields init reads. */
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

/** JSONC to JSON: drop comments and trailing commas, leaving strings alone. */
export function stripJsonComments(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      out += text.slice(start, i + 1);
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}

/**
 * The `[section]` headers of an INI or TOML file and each section's `key = value` lines,
 * enough to see which tools are configured (a TOML parser is more than init needs).
 */
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
