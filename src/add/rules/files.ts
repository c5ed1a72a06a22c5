import { blank, matchAll, type Span } from "./_spans.ts";

export type Lang =
  | "rust"
  | "ts"
  | "js"
  | "py"
  | "go"
  | "md"
  | "shell"
  | "c"
  | "cpp"
  | "json"
  | "yaml"
  | "css"
  | "html"
  | "toml"
  | "tf"
  | "docker"
  | "java"
  | "kotlin"
  | "ruby"
  | "swift"
  | "php"
  | "sql"
  | "proto";

interface FileWord {
  readonly re: RegExp;
  readonly lang: Lang;
  readonly patterns: readonly string[];
}

const TS = ["*.ts", "*.tsx"];
const JS = ["*.js", "*.jsx", "*.mjs", "*.cjs"];

/** Matched on the lowercased request. */
const WORDS: readonly FileWord[] = [
  { re: /\brust\b|\.rs\b/, lang: "rust", patterns: ["*.rs"] },
  { re: /\btype-?script\b|\btsx?\b/, lang: "ts", patterns: TS },
  { re: /\bjava-?script\b|\bjsx?\b|\bnode(?:\.?js)? (?:files?|code)\b/, lang: "js", patterns: JS },
  { re: /\bpython\b|\bpy\b/, lang: "py", patterns: ["*.py"] },
  {
    re: /\bgo(?:lang)? (?:files?|code|sources?|packages?)\b|\bgolang\b/,
    lang: "go",
    patterns: ["*.go"],
  },
  { re: /\bmarkdown\b|\bmd\b/, lang: "md", patterns: ["*.md"] },
  {
    re: /\b(?:shell|bash|sh)(?: scripts?| files?| code)?\b/,
    lang: "shell",
    patterns: ["*.sh", "*.bash"],
  },
  { re: /\bc (?:files?|code|sources?|headers?)\b/, lang: "c", patterns: ["*.c", "*.h"] },
  {
    re: /c\+\+|\bcpp\b/,
    lang: "cpp",
    patterns: ["*.cpp", "*.cc", "*.cxx", "*.hpp", "*.hh", "*.h"],
  },
  { re: /\bjson\b/, lang: "json", patterns: ["*.json"] },
  { re: /\bya?ml\b/, lang: "yaml", patterns: ["*.yml", "*.yaml"] },
  { re: /\bs?css\b|\bstylesheets?\b/, lang: "css", patterns: ["*.css", "*.scss"] },
  { re: /\bhtml\b/, lang: "html", patterns: ["*.html"] },
  { re: /\btoml\b/, lang: "toml", patterns: ["*.toml"] },
  { re: /\bterraform (?:files?|code|config)\b|\bhcl\b/, lang: "tf", patterns: ["*.tf"] },
  {
    re: /\bdockerfiles?\b|\bdocker files?\b/,
    lang: "docker",
    patterns: ["Dockerfile", "Dockerfile.*", "*.Dockerfile"],
  },
  { re: /\bjava\b(?!-?script)/, lang: "java", patterns: ["*.java"] },
  { re: /\bkotlin\b/, lang: "kotlin", patterns: ["*.kt", "*.kts"] },
  { re: /\bruby\b/, lang: "ruby", patterns: ["*.rb"] },
  { re: /\bswift\b/, lang: "swift", patterns: ["*.swift"] },
  { re: /\bphp\b/, lang: "php", patterns: ["*.php"] },
  { re: /\bsql\b/, lang: "sql", patterns: ["*.sql"] },
  { re: /\bproto(?:buf)?s?\b/, lang: "proto", patterns: ["*.proto"] },
];

const EXT_LANG: Record<string, Lang> = {
  rs: "rust",
  ts: "ts",
  tsx: "ts",
  js: "js",
  jsx: "js",
  mjs: "js",
  py: "py",
  go: "go",
  md: "md",
  sh: "shell",
  c: "c",
  h: "c",
  cpp: "cpp",
  json: "json",
  yml: "yaml",
  yaml: "yaml",
  css: "css",
  tf: "tf",
  rb: "ruby",
};

/** Names that are files in their own right: "when Cargo.toml changes". */
const NAMED =
  /\b(?:cargo\.toml|package\.json|go\.mod|go\.sum|pyproject\.toml|tsconfig\.json|makefile|dockerfile|requirements\.txt|cmakelists\.txt)\b/;
const CANONICAL: Record<string, string> = {
  "cargo.toml": "Cargo.toml",
  makefile: "Makefile",
  dockerfile: "Dockerfile",
  "cmakelists.txt": "CMakeLists.txt",
};

/** "any file", "every edit": everything. */
const ANYTHING =
  /\b(?:any|all)\s+(?:files?|edits?|changes?)\b|\bevery\s+(?:edit|change)\b|\banything\b/;

/** "<word> files": a kind of file, known or not. */
const UNKNOWN_KIND = /\b([a-z][\w+#-]*)\s+(?:files?|code|sources?)\b/;
const NOT_A_KIND =
  /^(?:the|my|our|your|these|those|this|that|all|any|every|each|some|of|edited|changed|modified|saved|new|other|same|source|project|its|their|his|her|more|few|many|two|several|certain|such|config|which)$/;

export interface FileChoice {
  /** In the order the request named them. */
  readonly patterns: string[];
  readonly languages: Lang[];
  /** For the notes. */
  readonly readFrom: string[];
  /** "cobol files": words for files the rules do not know. */
  readonly unknown: string[];
  /** `lower` with the words read here blanked out. */
  readonly rest: string;
}

function addLang(languages: Lang[], lang: Lang | undefined): void {
  if (lang !== undefined && !languages.includes(lang)) languages.push(lang);
}

/** Folders "in src" may name without a slash when the project's top level is unknown. */
const COMMON_FOLDERS = new Set([
  "src",
  "lib",
  "source",
  "app",
  "apps",
  "packages",
  "pkg",
  "cmd",
  "internal",
  "crates",
  "test",
  "tests",
  "scripts",
  "docs",
]);

/** Files that are tests, by the usual names and folders. */
export const TEST_PATTERNS = [
  "*.test.*",
  "*.spec.*",
  "*_test.*",
  "test_*.py",
  "/test/",
  "/tests/",
  "__tests__/",
];

/** "when tests change", "test files", "the tests": the project's test files. */
const TESTS =
  /\b(?:(?:unit|integration)\s+)?(?:tests?|specs?)(?:\s+(?:files?|code|suites?))?\s+(?:change[sd]?|are\s+(?:edited|changed|touched)|get\s+(?:edited|changed))\b|\btest\s+files?\b|\b(?:edit|change|touch)\s+(?:the\s+|a\s+)?tests?\b/;

/**
 * Which files the request means. `lower`: the lowercased request, commands blanked;
 * `original`: the same offsets, keeping the case of globs and folders.
 */
export function readFiles(
  lower: string,
  original: string,
  knownFolders: readonly string[] = [],
): FileChoice {
  const types: string[] = [];
  const languages: Lang[] = [];
  const readFrom: string[] = [];
  const used: Span[] = [];
  const globs: string[] = [];
  // Globs and .ext words first, from the original text: "*.rs", "src/**/*.ts", ".vue files".
  for (const m of matchAll(
    original,
    /(?<=^|[\s(,"'`])([\w./-]*\*[\w.*/{},-]*?)(?=$|[\s),;:"'`]|\.(?:\s|$))/,
  )) {
    const glob = m[1]!;
    globs.push(glob);
    readFrom.push(glob);
    used.push(m);
    const ext = /\*\.(\w+)$/.exec(glob)?.[1]?.toLowerCase();
    addLang(languages, ext === undefined ? undefined : EXT_LANG[ext]);
  }
  for (const m of matchAll(blank(lower, used), /(?<=^|\s)\.(\w+)\s+files?\b/)) {
    globs.push(`*.${m[1]}`);
    readFrom.push(m[0]);
    used.push(m);
    addLang(languages, EXT_LANG[m[1]!]);
  }
  let rest = blank(lower, used);
  for (const m of matchAll(rest, NAMED)) {
    types.push(CANONICAL[m[0]] ?? original.slice(m.start, m.end));
    readFrom.push(original.slice(m.start, m.end));
    used.push(m);
  }
  rest = blank(lower, used);
  for (const word of WORDS) {
    const m = matchAll(
      rest,
      new RegExp(`(?:${word.re.source})(?:\\s+(?:files?|code|sources?))?`),
    )[0];
    if (m === undefined) continue;
    for (const p of word.patterns) if (!types.includes(p)) types.push(p);
    addLang(languages, word.lang);
    readFrom.push(m[0].trim());
    used.push(m);
  }
  rest = blank(lower, used);
  // Folders: "src/", "in the src folder", "under packages/api".
  const folders: string[] = [];
  const folderRes = [
    /(?<=^|\s)((?:[\w.-]+\/)+)(?=$|[\s,;:)])/,
    /\b(?:in|under|inside|within|below)\s+(?:the\s+)?([\w.-]+(?:\/[\w.-]+)*)\/?\s+(?:folder|directory|dir)\b/,
    /\b(?:in|under|inside|within|below)\s+((?:[\w.-]+\/)*[\w.-]+\/)/,
  ];
  for (const re of folderRes) {
    for (const m of matchAll(rest, re)) {
      const folder = original.slice(
        m.start + m[0].indexOf(m[1]!),
        m.start + m[0].indexOf(m[1]!) + m[1]!.length,
      );
      const clean = folder.replace(/^\.?\/+/, "").replace(/\/+$/, "");
      if (clean !== "" && !folders.includes(clean)) {
        folders.push(clean);
        readFrom.push(`${clean}/`);
      }
      used.push(m);
    }
    rest = blank(lower, used);
  }
  // "in src", "under lib": a bare word is a folder when the project has it (or, with its
  // listing unknown, when it is a usual source folder); "in the background" is not.
  for (const m of matchAll(
    rest,
    /\b(?:in|under|inside|within)\s+(?:the\s+)?([\w.-]+)(?=$|[\s,;:)])/,
  )) {
    const word = original.slice(
      m.start + m[0].lastIndexOf(m[1]!),
      m.start + m[0].lastIndexOf(m[1]!) + m[1]!.length,
    );
    const known =
      knownFolders.length > 0 ? knownFolders.includes(`${word}/`) : COMMON_FOLDERS.has(word);
    if (!known || folders.includes(word)) continue;
    folders.push(word);
    readFrom.push(`${word}/`);
    used.push(m);
  }
  rest = blank(lower, used);
  const tests = matchAll(rest, TESTS)[0];
  if (tests !== undefined) {
    types.push(...TEST_PATTERNS.filter((p) => !types.includes(p)));
    readFrom.push(tests[0].trim());
    used.push(tests);
    rest = blank(lower, used);
  }
  let patterns = [...globs, ...types];
  if (folders.length > 0) {
    patterns =
      patterns.length === 0
        ? folders.map((f) => `/${f}/`)
        : folders.flatMap((f) => patterns.map((p) => (p.includes("/") ? p : `${f}/**/${p}`)));
  }
  if (patterns.length === 0 && ANYTHING.test(rest)) {
    patterns.push("*");
    readFrom.push("any file");
  }
  const unknown =
    patterns.length > 0
      ? []
      : matchAll(rest, UNKNOWN_KIND)
          .filter((m) => !NOT_A_KIND.test(m[1]!))
          .map((m) => m[0]);
  return { patterns, languages, readFrom, unknown, rest };
}
