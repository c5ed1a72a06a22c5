import { iniSections, type ProjectFiles } from "./project-files.ts";

/** How the project formats code, so the files init writes pass its own format checks. */
export interface CodeStyle {
  readonly useTabs: boolean;
  readonly indentWidth: number;
  readonly singleQuote: boolean;
  readonly semi: boolean;
  readonly trailingComma: boolean;
  readonly bracketSpacing: boolean;
  readonly printWidth: number;
  readonly from: string;
}

const PRETTIER_DEFAULTS: CodeStyle = {
  useTabs: false,
  indentWidth: 2,
  singleQuote: false,
  semi: true,
  trailingComma: true,
  bracketSpacing: true,
  printWidth: 80,
  from: "defaults",
};

type Loose = Record<string, unknown>;
const obj = (v: unknown): Loose => (typeof v === "object" && v !== null ? (v as Loose) : {});

function fromPrettier(o: Loose, base: CodeStyle, from: string): CodeStyle {
  return {
    useTabs: typeof o.useTabs === "boolean" ? o.useTabs : base.useTabs,
    indentWidth: typeof o.tabWidth === "number" ? o.tabWidth : base.indentWidth,
    singleQuote: typeof o.singleQuote === "boolean" ? o.singleQuote : base.singleQuote,
    semi: typeof o.semi === "boolean" ? o.semi : base.semi,
    trailingComma:
      typeof o.trailingComma === "string" ? o.trailingComma !== "none" : base.trailingComma,
    bracketSpacing: typeof o.bracketSpacing === "boolean" ? o.bracketSpacing : base.bracketSpacing,
    printWidth: typeof o.printWidth === "number" ? o.printWidth : base.printWidth,
    from,
  };
}

/** May be JSON or simple `key: value` YAML. */
function looseConfig(p: ProjectFiles, path: string): Loose {
  const json = p.json(path);
  if (json !== undefined) return obj(json);
  const out: Loose = {};
  for (const line of (p.text(path) ?? "").split("\n")) {
    const m = /^([A-Za-z]+)\s*:\s*(.+?)\s*$/.exec(line);
    if (!m) continue;
    const v = m[2]!.replace(/^["']|["']$/g, "");
    out[m[1]!] = v === "true" ? true : v === "false" ? false : /^\d+$/.test(v) ? Number(v) : v;
  }
  return out;
}

/** For TypeScript/JavaScript files. */
function fromEditorconfig(p: ProjectFiles, base: CodeStyle): CodeStyle {
  const text = p.text(".editorconfig");
  if (text === undefined) return base;
  let style = base;
  for (const [section, keys] of iniSections(text)) {
    if (section !== "*" && !/\bts\b|\{[^}]*ts/.test(section)) continue;
    const indent = keys.get("indent_style");
    const size = Number(keys.get("indent_size"));
    style = {
      ...style,
      ...(indent ? { useTabs: indent === "tab" } : {}),
      ...(Number.isInteger(size) && size > 0 ? { indentWidth: size } : {}),
      ...(keys.has("max_line_length") && Number(keys.get("max_line_length")) > 0
        ? { printWidth: Number(keys.get("max_line_length")) }
        : {}),
      from: ".editorconfig",
    };
  }
  return style;
}

/** The formatter's config first (prettier, biome, xo, oxfmt), then .editorconfig, then prettier's defaults. */
export function detectStyle(p: ProjectFiles): CodeStyle {
  const pkg = p.packageJson();
  const base = fromEditorconfig(p, PRETTIER_DEFAULTS);
  const biomePath = p.first("biome.json", "biome.jsonc");
  if (biomePath) {
    const biome = obj(p.json(biomePath));
    const fmt = obj(biome.formatter);
    const js = obj(obj(obj(biome.javascript).formatter));
    return {
      useTabs: (fmt.indentStyle ?? "tab") === "tab",
      indentWidth: typeof fmt.indentWidth === "number" ? fmt.indentWidth : 2,
      singleQuote: js.quoteStyle === "single",
      semi: js.semicolons !== "asNeeded",
      trailingComma: (js.trailingCommas ?? "all") !== "none",
      bracketSpacing: js.bracketSpacing !== false,
      printWidth: typeof fmt.lineWidth === "number" ? fmt.lineWidth : 80,
      from: biomePath,
    };
  }
  const prettierPath = p.first(
    ".prettierrc",
    ".prettierrc.json",
    ".prettierrc.yaml",
    ".prettierrc.yml",
    ".prettierrc.json5",
  );
  if (prettierPath) return fromPrettier(looseConfig(p, prettierPath), base, prettierPath);
  if (typeof pkg.prettier === "object")
    return fromPrettier(obj(pkg.prettier), base, '"prettier" in package.json');
  if (p.hasDep("xo") || pkg.xo !== undefined) {
    const xo = obj(pkg.xo);
    const space = xo.space;
    return {
      useTabs: space === undefined || space === false,
      indentWidth: typeof space === "number" ? space : 2,
      singleQuote: true,
      semi: xo.semicolon !== false,
      trailingComma: true,
      bracketSpacing: false,
      printWidth: 120,
      from: "xo",
    };
  }
  const oxfmt = p.first(".oxfmtrc.json", ".oxfmtrc.jsonc");
  if (oxfmt) return fromPrettier(obj(p.json(oxfmt)), { ...base, printWidth: 100 }, oxfmt);
  return base;
}
