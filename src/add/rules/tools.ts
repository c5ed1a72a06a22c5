import type { Lang } from "./files.ts";

export interface Command {
  readonly name: string;
  /** "cargo check", "make lint". */
  readonly label: string;
  /** A bash string (whole project) or an argv array with `{files}`. */
  readonly run: string | readonly string[];
  /** [] = the request must say. */
  readonly patterns: readonly string[];
  readonly timeout: number;
  /** Whole-project checks replace a stale run instead of queueing behind it. */
  readonly project: boolean;
}

export interface Tool extends Command {
  readonly re: RegExp;
  /** Other argv when the request says so, e.g. "fix" → `eslint --fix`. */
  readonly variants?: readonly {
    readonly when: RegExp;
    readonly run: readonly string[];
    readonly note: string;
    readonly name?: string;
  }[];
}

const FIX = /\b(?:auto-?)?fix(?:es|ing)?\b|--fix\b/;
const RUST = ["*.rs", "Cargo.toml"];
const TSJS = ["*.ts", "*.tsx", "*.js", "*.jsx", "*.mjs", "*.cjs"];
const WEB = [...TSJS, "*.json", "*.css", "*.scss", "*.md", "*.yml", "*.yaml", "*.html"];
const SHELL = ["*.sh", "*.bash"];
const CLIKE = ["*.c", "*.h", "*.cpp", "*.cc", "*.cxx", "*.hpp", "*.hh"];
const npx = (...rest: string[]): string[] => ["npx", "--no-install", ...rest];

const tool = (
  name: string,
  re: RegExp,
  run: string | readonly string[],
  patterns: readonly string[],
  timeout: number,
  extra: Partial<Pick<Tool, "variants" | "label">> = {},
): Tool => ({
  name,
  label: extra.label ?? name.replace(/-/g, " "),
  re,
  run,
  patterns,
  timeout,
  project: typeof run === "string",
  ...(extra.variants ? { variants: extra.variants } : {}),
});

/** Most specific first: a later entry never takes words an earlier one used ("ruff format" before "ruff"). */
export const TOOLS: readonly Tool[] = [
  tool("cargo-check", /\bcargo\s+check\b/, "cargo check --quiet --message-format short", RUST, 300),
  tool(
    "cargo-clippy",
    /\b(?:cargo\s+)?clippy\b/,
    // Clippy's findings are warnings: without -D warnings it passes whatever it finds.
    "cargo clippy --quiet --message-format short -- -D warnings",
    RUST,
    300,
  ),
  tool("cargo-fmt", /\bcargo\s+fmt\b/, "cargo fmt", ["*.rs"], 60),
  tool("cargo-test", /\bcargo\s+test\b/, "cargo test --quiet", RUST, 600),
  tool("cargo-build", /\bcargo\s+build\b/, "cargo build --quiet --message-format short", RUST, 600),
  tool("rustfmt", /\brustfmt\b/, ["rustfmt", "--edition", "2021", "{files}"], ["*.rs"], 60),
  tool(
    "tsc",
    /\btsc\b/,
    "npx --no-install tsc --noEmit -p .",
    ["*.ts", "*.tsx", "tsconfig.json"],
    120,
  ),
  tool("eslint", /\beslint\b/, npx("eslint", "{files}"), TSJS, 120, {
    variants: [
      { when: FIX, run: npx("eslint", "--fix", "{files}"), note: "fixing what it can (--fix)" },
    ],
  }),
  tool(
    "prettier",
    /\bprettier\b/,
    npx("prettier", "--write", "--ignore-unknown", "{files}"),
    WEB,
    60,
    {
      variants: [
        {
          when: /\bprettier\s+--check\b|\bcheck(?:s|ing)?\s+(?:the\s+)?format/,
          run: npx("prettier", "--check", "--ignore-unknown", "{files}"),
          note: "checking only (--check), not rewriting",
        },
      ],
    },
  ),
  tool(
    "biome",
    /\bbiome\b/,
    npx("biome", "check", "--write", "--no-errors-on-unmatched", "{files}"),
    [...TSJS, "*.json"],
    60,
  ),
  tool("ruff-format", /\bruff\s+format\b/, ["ruff", "format", "{files}"], ["*.py"], 60),
  tool("ruff", /\bruff(?:\s+check)?\b/, ["ruff", "check", "{files}"], ["*.py"], 60, {
    variants: [
      {
        when: /^(?!.*\bruff\s+check\b).*\b(?:re)?format(?:s|ting|ter)?\b/,
        run: ["ruff", "format", "{files}"],
        note: '"format … with ruff" read as ruff format',
        name: "ruff-format",
      },
      { when: FIX, run: ["ruff", "check", "--fix", "{files}"], note: "fixing what it can (--fix)" },
    ],
  }),
  tool("black", /\bblack\b/, ["black", "--quiet", "{files}"], ["*.py"], 60),
  tool("mypy", /\bmypy\b/, ["mypy", "{files}"], ["*.py"], 300),
  tool("pytest", /\bpytest\b/, "pytest -q", ["*.py"], 600),
  tool("go-vet", /\bgo\s+vet\b/, "go vet ./...", ["*.go", "go.mod"], 300),
  tool("gofmt", /\bgo\s*fmt\b/, ["gofmt", "-w", "{files}"], ["*.go"], 60),
  tool("go-test", /\bgo\s+test\b/, "go test ./...", ["*.go", "go.mod"], 600),
  tool("go-build", /\bgo\s+build\b/, "go build ./...", ["*.go", "go.mod"], 300),
  tool("golangci-lint", /\bgolangci(?:-lint)?\b/, "golangci-lint run", ["*.go"], 300),
  tool("shellcheck", /\bshellcheck\b/, ["shellcheck", "{files}"], SHELL, 60),
  tool("shfmt", /\bshfmt\b/, ["shfmt", "-w", "{files}"], SHELL, 60),
  tool(
    "hadolint",
    /\bhadolint\b/,
    ["hadolint", "{files}"],
    ["Dockerfile", "Dockerfile.*", "*.Dockerfile"],
    60,
  ),
  tool(
    "terraform-validate",
    /\bterraform\s+validate\b/,
    "terraform validate -no-color",
    ["*.tf"],
    120,
  ),
  tool("terraform-fmt", /\bterraform\s+fmt\b/, "terraform fmt -recursive", ["*.tf"], 60),
  tool("markdownlint", /\bmarkdownlint\b/, npx("markdownlint-cli2", "{files}"), ["*.md"], 60),
  tool("yamllint", /\byamllint\b/, ["yamllint", "{files}"], ["*.yml", "*.yaml"], 60),
  tool("clang-format", /\bclang-format\b/, ["clang-format", "-i", "{files}"], CLIKE, 60),
  tool("stylelint", /\bstylelint\b/, npx("stylelint", "{files}"), ["*.css", "*.scss"], 60),
  tool("vitest", /\bvitest\b/, "npx --no-install vitest run", TSJS, 600),
  tool("jest", /\bjest\b/, "npx --no-install jest", TSJS, 600),
  tool("rubocop", /\brubocop\b/, ["rubocop", "{files}"], ["*.rb"], 120),
];

const byName = (name: string): Tool => {
  const found = TOOLS.find((t) => t.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
};

/** Generic words ("lint", "format" …) and the tool each language uses for them. */
export const INTENTS: readonly { word: string; re: RegExp; by: Partial<Record<Lang, string>> }[] = [
  {
    word: "typecheck",
    re: /\btype[- ]?check(?:s|ing|er)?\b|\bcheck(?:s|ing)?\s+(?:the\s+)?types\b/,
    by: { ts: "tsc", js: "tsc", rust: "cargo-check", py: "mypy", go: "go-vet" },
  },
  {
    word: "lint",
    re: /\blint(?:s|ing|er|ers)?\b/,
    by: {
      ts: "eslint",
      js: "eslint",
      rust: "cargo-clippy",
      py: "ruff",
      go: "go-vet",
      shell: "shellcheck",
      docker: "hadolint",
      md: "markdownlint",
      yaml: "yamllint",
      css: "stylelint",
      ruby: "rubocop",
    },
  },
  {
    word: "format",
    re: /\b(?:re)?format(?:s|ting|ter|ters)?\b|\bprettify\b/,
    by: {
      ts: "prettier",
      js: "prettier",
      json: "prettier",
      css: "prettier",
      md: "prettier",
      yaml: "prettier",
      html: "prettier",
      rust: "rustfmt",
      py: "ruff-format",
      go: "gofmt",
      shell: "shfmt",
      c: "clang-format",
      cpp: "clang-format",
      tf: "terraform-fmt",
    },
  },
  {
    word: "test",
    re: /\b(?:unit\s+)?tests?\b|\btest\s+suite\b/,
    by: { rust: "cargo-test", py: "pytest", go: "go-test" },
  },
  {
    word: "build",
    re: /\b(?:build|compile)s?\b/,
    by: { rust: "cargo-build", go: "go-build", ts: "tsc" },
  },
];

/** If the rules know one. */
export function toolFor(by: Partial<Record<Lang, string>>, lang: Lang): Tool | undefined {
  const name = by[lang];
  return name === undefined ? undefined : byName(name);
}
