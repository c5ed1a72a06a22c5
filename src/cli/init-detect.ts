import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One callback `cpilot init` proposes, as config source lines. */
export interface Proposal {
  readonly why: string;
  readonly source: string;
}

function hasDep(root: string, name: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<
      string,
      Record<string, string> | undefined
    >;
    return Boolean(pkg.dependencies?.[name] ?? pkg.devDependencies?.[name]);
  } catch {
    return false;
  }
}

const cb = (lines: string[]): string =>
  `    {\n${lines.map((l) => `      ${l},`).join("\n")}\n    }`;

/** Look at the project's toolchain files and propose callbacks for what is there. */
export function detectToolchains(root: string): Proposal[] {
  const at = (f: string): boolean => existsSync(join(root, f));
  const out: Proposal[] = [];
  if (at("tsconfig.json")) {
    out.push({
      why: "tsconfig.json",
      source: cb([
        `name: "typecheck"`,
        `description: "TypeScript types"`,
        `pattern: ["*.ts", "*.tsx", "tsconfig.json"]`,
        `run: "npx --no-install tsc --noEmit -p ."`,
        `timeout: 120`,
        `overlap: "replace"`,
        `successMessage: "types OK"`,
      ]),
    });
  }
  if (hasDep(root, "@biomejs/biome")) {
    out.push({
      why: "@biomejs/biome in package.json",
      source: cb([
        `name: "biome"`,
        `description: "format and lint, fixing what it can"`,
        `pattern: ["*.ts", "*.tsx", "*.js", "*.jsx", "*.json"]`,
        `run: ["npx", "--no-install", "biome", "check", "--write", "--no-errors-on-unmatched", "{files}"]`,
        `timeout: 60`,
        `fixes: true`,
      ]),
    });
  } else if (hasDep(root, "prettier")) {
    out.push({
      why: "prettier in package.json",
      source: cb([
        `name: "prettier"`,
        `description: "format"`,
        `pattern: ["*.ts", "*.tsx", "*.js", "*.jsx", "*.css", "*.md"]`,
        `run: ["npx", "--no-install", "prettier", "--write", "--ignore-unknown", "{files}"]`,
        `timeout: 60`,
        `fixes: true`,
      ]),
    });
  }
  if (hasDep(root, "eslint")) {
    out.push({
      why: "eslint in package.json",
      source: cb([
        `name: "eslint"`,
        `pattern: ["*.ts", "*.tsx", "*.js", "*.jsx"]`,
        `run: ["npx", "--no-install", "eslint", "--fix", "{files}"]`,
        `timeout: 120`,
        `fixes: true`,
      ]),
    });
  }
  if (at("Cargo.toml")) {
    out.push({
      why: "Cargo.toml",
      source: cb([
        `name: "rustfmt"`,
        `pattern: "*.rs"`,
        `run: ["rustfmt", "--edition", "2021", "{files}"]`,
        `timeout: 60`,
        `fixes: true`,
      ]),
    });
    out.push({
      why: "Cargo.toml",
      source: cb([
        `name: "cargo-check"`,
        `pattern: ["*.rs", "Cargo.toml"]`,
        `run: "cargo check --quiet --message-format short"`,
        `timeout: 300`,
        `overlap: "replace"`,
        `successMessage: "cargo check passed"`,
      ]),
    });
  }
  if (at("pyproject.toml") || at("requirements.txt") || at("setup.py")) {
    out.push({
      why: "a Python project",
      source: cb([
        `name: "ruff"`,
        `pattern: "*.py"`,
        `run: 'ruff format "$@" && ruff check --fix "$@"'`,
        `timeout: 60`,
        `fixes: true`,
      ]),
    });
  }
  if (at("go.mod")) {
    out.push({
      why: "go.mod",
      source: cb([
        `name: "gofmt"`,
        `pattern: "*.go"`,
        `run: ["gofmt", "-w", "{files}"]`,
        `timeout: 60`,
        `fixes: true`,
      ]),
    });
    out.push({
      why: "go.mod",
      source: cb([
        `name: "go-vet"`,
        `pattern: ["*.go", "go.mod"]`,
        `run: "go vet ./..."`,
        `timeout: 300`,
        `overlap: "replace"`,
      ]),
    });
  }
  return out;
}
