import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { ProjectFiles } from "./project-files.ts";

/** CI, hook runners, task files. */
const RUN_FILES = [
  ".pre-commit-config.yaml",
  ".husky/pre-commit",
  ".husky/pre-push",
  "lefthook.yml",
  "lefthook.yaml",
  ".lefthook.yml",
  ".lintstagedrc",
  ".lintstagedrc.json",
  ".lintstagedrc.yaml",
  ".lintstagedrc.yml",
  "lint-staged.config.js",
  "lint-staged.config.mjs",
  ".gitlab-ci.yml",
  "Makefile",
  "makefile",
  "justfile",
  "Taskfile.yml",
  "Taskfile.yaml",
  "taskfile.yml",
  "taskfile.yaml",
  "tox.ini",
  "noxfile.py",
  "turbo.json",
];

const LINT_STAGED = "lint-staged in package.json";

export interface RunLine {
  readonly file: string;
  readonly line: string;
  /** From the project root's files while detecting one of its packages. */
  readonly atRoot?: boolean;
}

/**
 * What the project shows it runs outside package.json scripts: CI workflows, hook runner
 * configs, Makefile, tox and nox, scripts/ (a package's also from the project root, where
 * CI and hooks live). A dependency is not evidence; these are.
 */
export class RunEvidence {
  readonly #lines: RunLine[] = [];
  readonly #staged: { glob: string; text: string }[] = [];

  constructor(p: ProjectFiles) {
    const roots = p.top === p.root ? [p.root] : [p.root, p.top];
    for (const root of roots) {
      const files = [...RUN_FILES, ...workflows(root), ...taskScripts(root)];
      for (const file of files) {
        const text = p.textAt(join(root, file));
        if (text === undefined) continue;
        const atRoot = root !== p.root;
        const label = atRoot ? `${file} at the project root` : file;
        for (const line of text.split("\n"))
          this.#lines.push({ file: label, line, ...(atRoot ? { atRoot } : {}) });
      }
    }
    const pkg = p.packageJson() as { "lint-staged"?: unknown };
    const staged = pkg["lint-staged"];
    if (staged !== undefined)
      for (const line of JSON.stringify(staged).split(/[,{}[\]]/))
        this.#lines.push({ file: LINT_STAGED, line });
    if (typeof staged === "object" && staged !== null)
      for (const [glob, commands] of Object.entries(staged))
        this.#staged.push({ glob, text: JSON.stringify(commands) });
  }

  /** When lint-staged is all that runs it (prettier only on Markdown beside biome on the code). */
  lintStagedOnly(tool: string): string[] | undefined {
    const lines = this.mentions(tool);
    if (lines.length === 0 || lines.some((l) => l.file !== LINT_STAGED)) return undefined;
    const word = new RegExp(`(^|[^\\w.-])${tool.replace(/[.+-]/g, "\\$&")}($|[^\\w.-])`);
    const globs = this.#staged.filter((s) => word.test(s.text)).map((s) => s.glob);
    return globs.length > 0 ? globs : undefined;
  }

  /** The lines that mention `tool` as a word (a command or a pre-commit hook id). */
  mentions(tool: string): RunLine[] {
    const word = new RegExp(`(^|[^\\w.-])${tool.replace(/[.+-]/g, "\\$&")}($|[^\\w.-])`);
    return this.#lines.filter((l) => word.test(l.line) && !/^\s*#/.test(l.line));
  }

  /** Or one of the three lines after it (a pre-commit hook's `args:` under its `id:`). */
  near(tool: string, flag: RegExp): boolean {
    const all = this.#lines;
    const at = new Set(this.mentions(tool));
    for (let i = 0; i < all.length; i++) {
      if (!at.has(all[i]!)) continue;
      for (let j = i; j < Math.min(all.length, i + 4); j++) {
        if (j > i && all[j]!.file !== all[i]!.file) break;
        if (j > i && /^\s*-\s*(id|repo):/.test(all[j]!.line)) break;
        if (flag.test(all[j]!.line)) return true;
      }
    }
    return false;
  }

  onlyAtRoot(tool: string): boolean {
    const lines = this.mentions(tool);
    return lines.length > 0 && lines.every((l) => l.atRoot === true);
  }

  /** Said for the plan. */
  where(tool: string): string | undefined {
    const files = [...new Set(this.mentions(tool).map((l) => l.file))];
    return files.length === 0 ? undefined : files.join(", ");
  }
}

/** `scripts/lint`, `scripts/check.sh`. */
const TASK_NAMES = /^(lint|check|format|fmt|test|typecheck|ci)(\.sh)?$/;

function taskScripts(root: string): string[] {
  try {
    return readdirSync(join(root, "scripts"))
      .filter((n) => TASK_NAMES.test(n))
      .sort()
      .map((n) => `scripts/${n}`);
  } catch {
    return [];
  }
}

function workflows(root: string): string[] {
  try {
    return readdirSync(join(root, ".github", "workflows"))
      .filter((n) => n.endsWith(".yml") || n.endsWith(".yaml"))
      .sort()
      .map((n) => `.github/workflows/${n}`);
  } catch {
    return [];
  }
}
