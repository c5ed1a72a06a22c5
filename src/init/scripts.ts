export interface ScriptTool {
  readonly script: string;
  readonly tool: string;
  readonly args: string[];
}

const RUNNERS = new Set(["npx", "bunx", "pnpx", "cross-env", "dotenv"]);
const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);

/** Quoted parts kept together, quotes removed. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const m of command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]!);
  return words;
}

/** Following `npm run x`, `pnpm x`, `yarn x`, `bun run x` into scripts, and through runners such as `npx`. */
export function scriptTools(scripts: Record<string, string>): ScriptTool[] {
  const out: ScriptTool[] = [];
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const command = scripts[name];
    if (typeof command !== "string") return;
    for (const part of command.split(/&&|\|\||;|\|/)) {
      let words = shellWords(part.trim()).filter((w, i, all) => !isEnvAssignment(w, i, all));
      // the runner's own flags (`npx --yes`) go; the tool's stay
      while (words.length > 0 && RUNNERS.has(words[0]!)) {
        words = words.slice(1);
        while (words[0]?.startsWith("-")) words = words.slice(1);
      }
      const [first, second, third] = words;
      if (first === undefined) continue;
      if (PACKAGE_MANAGERS.has(first)) {
        if (second === "exec" || second === "dlx" || second === "x") {
          if (third !== undefined) out.push({ script: name, tool: third, args: words.slice(3) });
        } else if (second === "run" || second === "run-script") {
          if (third !== undefined) visit(third);
        } else if (second !== undefined && second in scripts) visit(second);
        continue;
      }
      out.push({ script: name, tool: first, args: words.slice(1) });
    }
  };
  for (const name of Object.keys(scripts)) visit(name);
  return out;
}

function isEnvAssignment(word: string, index: number, all: string[]): boolean {
  return /^[A-Z_][A-Z0-9_]*=/.test(word) && all.slice(0, index).every((w) => w.includes("="));
}

const VALUE_FLAGS =
  /^-(c|f|o|p|-config|-config-path|-ignore-path|-format|-project|-ext|-max-warnings|-cache-location|-output-file|-rulesdir|-parser|-plugin|-ignore-pattern|-resolve-plugins-relative-to|-log-level|-tsconfig|-reporter|-env|-global|-stdin-filename|-plugin-search-dir)$/;

/** The paths and globs a tool is given (its non-flag arguments, minus its subcommands). */
export function scopeArgs(args: readonly string[], subcommands: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const [i, arg] of args.entries()) {
    if (arg.startsWith("-")) continue;
    if (i === 0 && subcommands.includes(arg)) continue;
    // The value of a flag such as `--config x.json` or `--ext .ts` is not a scope.
    const prev = args[i - 1];
    if (prev !== undefined && VALUE_FLAGS.test(prev)) continue;
    out.push(arg);
  }
  return out;
}

/**
 * `src` becomes `src/**\/*.ts`, so does `src/**\/*` (every file), another glob stays (braces
 * expanded), `.` or no scope means anywhere.
 */
export function scopePatterns(scope: readonly string[], exts: readonly string[]): string[] {
  const anywhere = exts.map((e) => `*.${e}`);
  if (scope.length === 0) return anywhere;
  const out: string[] = [];
  for (const raw of scope) {
    const arg = raw.replace(/^\.\//, "").replace(/\/+$/, "");
    if (arg === "." || arg === "" || arg === "**" || arg === "**/*") return anywhere;
    // `src/**/*` names every file: the tool's own kinds of file, as it lints or formats them
    // (`packages/*` names folders too: what is below them)
    if (/(^|\/)\*$/.test(arg))
      out.push(
        ...expandBraces(arg).flatMap((g) =>
          exts.flatMap((e) =>
            /(^|\/)\*\*\/\*$/.test(g) ? [`${g}.${e}`] : [`${g}.${e}`, `${g}/**/*.${e}`],
          ),
        ),
      );
    else if (/[*?[{]/.test(arg)) out.push(...expandBraces(arg));
    else if (/\.[A-Za-z0-9]+$/.test(arg)) out.push(arg);
    else out.push(...exts.map((e) => `${arg}/**/*.${e}`));
  }
  return [...new Set(out)];
}

/** Gitignore rules have no braces. */
export function expandBraces(glob: string): string[] {
  const m = /\{([^{}]*)\}/.exec(glob);
  if (!m) return [glob];
  return m[1]!
    .split(",")
    .flatMap((alt) =>
      expandBraces(glob.slice(0, m.index) + alt + glob.slice(m.index + m[0].length)),
    );
}
