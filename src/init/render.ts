import type { CallbackSpec } from "./spec.ts";
import type { CodeStyle } from "./style.ts";

type Value =
  | string
  | number
  | boolean
  | readonly Value[]
  | { readonly [key: string]: Value | undefined };

/** Lays out as prettier (and biome, oxfmt) would with the project's options: objects expanded, short arrays on one line. */
class Printer {
  constructor(
    private readonly style: CodeStyle,
    private readonly json: boolean,
  ) {}

  private indent(level: number): string {
    return this.style.useTabs ? "\t".repeat(level) : " ".repeat(level * this.style.indentWidth);
  }

  private columns(level: number): number {
    return level * this.style.indentWidth;
  }

  string(s: string): string {
    if (this.json) return JSON.stringify(s);
    const preferred = this.style.singleQuote ? "'" : '"';
    const other = preferred === "'" ? '"' : "'";
    const count = (q: string): number => s.split(q).length - 1;
    const q = count(preferred) > count(other) ? other : preferred;
    const body = s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replaceAll(q, `\\${q}`);
    return `${q}${body}${q}`;
  }

  private key(k: string): string {
    return this.json || !/^[A-Za-z_$][\w$]*$/.test(k) ? this.string(k) : k;
  }

  private comma(last: boolean): string {
    return !last || (this.style.trailingComma && !this.json) ? "," : "";
  }

  /** `before` columns used on its first line, `after` following it. */
  value(v: Value, level: number, before: number, after: number): string {
    if (typeof v === "string") return this.string(v);
    if (typeof v === "number" || typeof v === "boolean") return String(v);
    if (Array.isArray(v)) {
      const items = v as readonly Value[];
      if (items.length === 0) return "[]";
      const hasObject = items.some((i) => typeof i === "object" && !Array.isArray(i));
      const flat = `[${items.map((i) => this.value(i, level, 0, 0)).join(", ")}]`;
      if (
        !hasObject &&
        !flat.includes("\n") &&
        this.columns(level) + before + flat.length + after <= this.style.printWidth
      )
        return flat;
      const lines = items.map((item, i) => {
        const c = this.comma(i === items.length - 1);
        return `${this.indent(level + 1)}${this.value(item, level + 1, 0, c.length)}${c}`;
      });
      return `[\n${lines.join("\n")}\n${this.indent(level)}]`;
    }
    const entries = Object.entries(v as Record<string, Value | undefined>).filter(
      (e): e is [string, Value] => e[1] !== undefined,
    );
    const lines = entries.map(([k, item], i) => {
      const c = this.comma(i === entries.length - 1);
      const head = `${this.key(k)}: `;
      return `${this.indent(level + 1)}${head}${this.value(item, level + 1, head.length, c.length)}${c}`;
    });
    const space = this.style.bracketSpacing ? " " : "";
    return lines.length === 0
      ? `{${space}${space}}`
      : `{\n${lines.join("\n")}\n${this.indent(level)}}`;
  }
}

/** Keys in the order people read them. */
function plain(callbacks: readonly CallbackSpec[]): Value[] {
  return callbacks.map((c) => ({
    name: c.name,
    description: c.description,
    pattern: c.pattern,
    run: c.run,
    timeout: c.timeout,
    blocking: c.blocking,
    overlap: c.overlap,
    fixes: c.fixes,
    successMessage: c.successMessage,
    cwd: c.cwd,
    env: c.env,
  }));
}

export interface ConfigExtras {
  readonly resyncTree?: boolean;
}

/** In the project's style; `comments` go above the config. */
export function renderTs(
  callbacks: readonly CallbackSpec[],
  style: CodeStyle,
  comments: readonly string[],
  extras: ConfigExtras = {},
): string {
  const p = new Printer(style, false);
  const semi = style.semi ? ";" : "";
  const space = style.bracketSpacing ? " " : "";
  const body = p.value(
    { ...(extras.resyncTree ? { resync: "tree" } : {}), callbacks: plain(callbacks) },
    0,
    "export default defineConfig(".length,
    2,
  );
  return [
    `import {${space}defineConfig${space}} from ${p.string("cpilot")}${semi}`,
    "",
    ...comments.map((c) => `// ${c}`),
    `export default defineConfig(${body})${semi}`,
    "",
  ].join("\n");
}

export function renderJson(
  callbacks: readonly CallbackSpec[],
  style: CodeStyle,
  extras: ConfigExtras = {},
): string {
  const p = new Printer(style, true);
  return `${p.value({ ...(extras.resyncTree ? { resync: "tree" } : {}), callbacks: plain(callbacks) }, 0, 0, 0)}\n`;
}

/** YAML has no tabs: spaces. */
export async function renderYaml(
  callbacks: readonly CallbackSpec[],
  style: CodeStyle,
  extras: ConfigExtras = {},
): Promise<string> {
  const { stringify } = await import("yaml");
  const value = { ...(extras.resyncTree ? { resync: "tree" } : {}), callbacks: plain(callbacks) };
  // Drop the keys a callback leaves unset: YAML would print them as null.
  return stringify(JSON.parse(JSON.stringify(value)), {
    indent: style.useTabs ? 2 : style.indentWidth,
    lineWidth: 0,
  });
}
