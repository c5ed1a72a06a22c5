import { isAbsolute, join, relative } from "node:path";
import type { ProjectFiles } from "./project-files.ts";
import { shellWords } from "./scripts.ts";

/** A test runner a package.json script runs, as the shell command that runs it alone. */
export interface ScriptTestRunner {
  readonly name: string;
  /** As a person says it: `node --test`. */
  readonly label: string;
  readonly script: string;
  readonly run: string;
}

interface Runner {
  readonly name: string;
  readonly label?: string;
  /** Where the runner's word is in the words of one command, or -1. */
  readonly at: (words: readonly string[]) => number;
  /** Its executable: node_modules/.bin's, or one on PATH. */
  readonly bin: (p: ProjectFiles) => string;
}

const local = (bin: string) => (p: ProjectFiles) => p.localBin(bin);
const word = (w: string) => (words: readonly string[]) => words.indexOf(w);
/** `node --test` with any node flags between (`--experimental-strip-types`). */
const withTest = (w: string) => (words: readonly string[]) => {
  const i = words.indexOf(w);
  if (i === -1) return -1;
  const flags = words.slice(i + 1);
  const end = flags.findIndex((f) => !f.startsWith("-"));
  return (end === -1 ? flags : flags.slice(0, end)).includes("--test") ? i : -1;
};

/** Those with no "tests related to these files" mode: the project's test command, whole. */
const RUNNERS: readonly Runner[] = [
  { name: "ava", at: word("ava"), bin: local("ava") },
  { name: "mocha", at: word("mocha"), bin: local("mocha") },
  { name: "tap", at: word("tap"), bin: local("tap") },
  { name: "uvu", at: word("uvu"), bin: local("uvu") },
  { name: "node-test", label: "node --test", at: withTest("node"), bin: () => "node" },
  { name: "node-test", label: "tsx --test", at: withTest("tsx"), bin: local("tsx") },
  {
    name: "bun-test",
    label: "bun test",
    at: (words) => words.findIndex((w, i) => w === "bun" && words[i + 1] === "test"),
    bin: (p) => (p.hasDepHereOrAtTop("bun") ? p.localBin("bun") : "bun"),
  },
];

/**
 * Words that may come before the runner in a command: package-manager launchers,
 * coverage and env wrappers (`c8 ava`, `nyc --reporter=lcov mocha`, `cross-env CI=1 tap`),
 * which the callback leaves out: coverage is not what the agent needs to hear.
 */
const BEFORE = new Set([
  "npx",
  "bunx",
  "pnpx",
  "pnpm",
  "yarn",
  "exec",
  "c8",
  "nyc",
  "cross-env",
  "dotenv",
]);

/** `--watch` would never end. */
const WATCH = /(^|\s)(--watch|-w)(?=\s|$)/g;

/**
 * The first script (`test` first) that runs one of these runners, after the builds that
 * script runs before it (`xo && npm run build && ava`: the tests read what the build writes).
 */
export function scriptTestRunner(p: ProjectFiles): ScriptTestRunner | undefined {
  const scripts = p.packageJson().scripts ?? {};
  const names = Object.keys(scripts).sort((a, b) => rank(a) - rank(b));
  for (const script of names) {
    const command = scripts[script];
    if (typeof command !== "string") continue;
    const parts = command.split(/&&|\|\||;|\|/).map((part) => part.trim());
    for (const [k, part] of parts.entries()) {
      const words = shellWords(part);
      for (const runner of RUNNERS) {
        const i = runner.at(words);
        if (i === -1 || !words.slice(0, i).every(wrapper)) continue;
        // the command as written from the runner's word on, quotes and globs kept for bash
        const from = part.indexOf(words[i]!, after(part, words.slice(0, i)));
        if (from === -1) continue;
        const rest = part.slice(from + words[i]!.length).replace(WATCH, "");
        const pretest = script === "test" ? (scripts.pretest ?? "").split(/&&|;/) : [];
        // `cd apps/cli && bun test`: the runner runs in that folder, with its config there
        let folder = "";
        const steps: string[] = [];
        for (const b of pretest.map((b) => b.trim())) steps.push(...build(p, b, folder));
        for (const b of parts.slice(0, k)) {
          const cd = changedFolder(b);
          if (cd === null) steps.push(...build(p, b, folder));
          else if (cd === undefined) return undefined;
          else {
            steps.push(b);
            folder = join(folder, cd);
          }
        }
        return {
          name: runner.name,
          label: runner.label ?? runner.name,
          script,
          run: [...steps, `${rebased(runner.bin(p), folder)}${rest}`.trim()].join(" && "),
        };
      }
    }
  }
  return undefined;
}

const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);
const BUILDERS = new Set(["tsc", "tsup", "unbuild", "rollup", "esbuild"]);

/** A build step, runnable outside the package manager from `folder`, or none. */
function build(p: ProjectFiles, part: string, folder: string): string[] {
  const [first, second, third] = shellWords(part);
  if (first === undefined) return [];
  if (PACKAGE_MANAGERS.has(first)) {
    const name = second === "run" || second === "run-script" ? third : second;
    return name !== undefined && /^(build|compile)\b/.test(name) ? [part] : [];
  }
  return BUILDERS.has(first)
    ? [`${rebased(p.localBin(first), folder)}${part.slice(first.length)}`]
    : [];
}

/**
 * `cd x` gives the folder it goes to, relative to where it starts; null when the part is not
 * a `cd`; undefined when the folder cannot be known here (`cd $DIR`, `cd ~`, `cd /abs`).
 */
function changedFolder(part: string): string | null | undefined {
  const words = shellWords(part.trim());
  if (words[0] !== "cd") return null;
  const to = words[1];
  if (words.length !== 2 || to === undefined || !/^[\w.@+-][\w./@+-]*$/.test(to)) return undefined;
  // above the package, its binaries cannot be reached the same way: not guessed
  return to.split("/").includes("..") ? undefined : to;
}

/** A package's own binary (`node_modules/.bin/bun`), as reached from a folder below it. */
function rebased(bin: string, folder: string): string {
  if (folder === "" || !bin.includes("/") || isAbsolute(bin)) return bin;
  return relative(folder, bin) || ".";
}

/** Where the words before the runner end in the command as written (their quotes aside). */
function after(part: string, before: readonly string[]): number {
  let at = 0;
  for (const w of before) {
    const found = part.indexOf(w, at);
    if (found !== -1) at = found + w.length;
  }
  return at;
}

function wrapper(word: string): boolean {
  return BEFORE.has(word) || word.startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);
}

/** `test` before `test:unit` before the rest. */
function rank(script: string): number {
  return script === "test" ? 0 : script.startsWith("test") ? 1 : 2;
}
