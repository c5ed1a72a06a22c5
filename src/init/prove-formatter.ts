import { join } from "node:path";
import { runGit, splitNul } from "../match/git.ts";
import { compilePatterns } from "../match/pattern.ts";
import { runSync, utf8 } from "../platform/run-sync.ts";
import { ownFiles } from "../project/not-own.ts";
import { installedVersion, pinnedVersion } from "./pinned-version.ts";
import { ProjectFiles } from "./project-files.ts";
import type { Proposal } from "./spec.ts";

interface CheckMode {
  /** From the callback's own argv. */
  readonly argv: (run: readonly string[]) => string[] | null;
  readonly count: (output: string) => number;
  /** It finds the files itself (`cargo fmt --all`): none are named on its command line. */
  readonly whole?: (run: readonly string[]) => boolean;
}

/** The words that start the tool: `yarn prettier` under Plug'n'Play. */
const bin = (run: readonly string[]) => (run[0] === "yarn" ? run.slice(0, 2) : run.slice(0, 1));
const lines = (re: RegExp) => (out: string) => out.split("\n").filter((l) => re.test(l)).length;

const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[\\d;]*m`, "g");

const MODES: Readonly<Record<string, CheckMode>> = {
  prettier: {
    argv: (run) => [...bin(run), "--list-different", "--ignore-unknown"],
    count: lines(/\S/),
  },
  biome: {
    argv: (run) => [
      ...bin(run),
      "format",
      "--files-ignore-unknown=true",
      "--no-errors-on-unmatched",
    ],
    count: lines(/ format ━|^.+ format\s*━/),
  },
  "ruff-format": {
    argv: (run) => [...bin(run), "format", "--check"],
    count: lines(/^Would reformat/),
  },
  // a linter that fixes: its fixes, listed without writing (`--diff`), one `--- file` each
  ruff: {
    argv: (run) => (run.includes("--fix") ? [...bin(run), "check", "--diff"] : null),
    count: (out) =>
      new Set(
        out
          .split("\n")
          .filter((l) => l.startsWith("--- "))
          .map((l) => l.slice(4)),
      ).size,
  },
  // `from <file>:` before each file's diff, in colour unless NO_COLOR
  "deno-fmt": {
    argv: (run) => [...bin(run), "fmt", "--check"],
    count: (out) => out.split("\n").filter((l) => /^from\b/.test(l.replace(COLOUR, ""))).length,
  },
  black: { argv: (run) => [...bin(run), "--check"], count: lines(/^would reformat/) },
  gofmt: {
    argv: (run) => [...bin(run), ...run.filter((w) => w === "-s"), "-l"],
    count: lines(/\S/),
  },
  gofumpt: { argv: (run) => [...bin(run), "-l"], count: lines(/\S/) },
  rustfmt: {
    argv: (run) =>
      run[0] === "rustfmt" || (run[0] === "cargo" && run[1] === "fmt")
        ? [...run.filter((w) => w !== "{files}"), "--check"]
        : null,
    whole: (run) => run[0] === "cargo",
    // `Diff in <file>:<line>:` (older: `Diff in <file> at line <n>:`), once per hunk
    count: (out) =>
      new Set(
        out
          .split("\n")
          .map((l) => /^Diff in (.+?)(?::\d+:| at line \d+:)\s*$/.exec(l)?.[1])
          .filter((f) => f !== undefined),
      ).size,
  },
};

export interface Proof {
  readonly rewrites: number;
  readonly files: number;
}

/** Past this share of its files (and more than a few), a formatter is not the project's. */
const FOREIGN_SHARE = 0.2;
const FEW = 5;
/** Enough to tell, quick on a large project. */
const SAMPLE = 2000;

/**
 * Each formatter is run in check mode on the project's own tracked files it would get, and
 * kept only when it would rewrite few: one that would rewrite much of a project is not
 * the one it is formatted with.
 */
export function proveFormatters(
  root: string,
  proposals: readonly Proposal[],
): { proposals: Proposal[]; notes: string[] } {
  const kept: Proposal[] = [];
  const notes: string[] = [];
  let tracked: string[] | null = null;
  for (const proposal of proposals) {
    const c = proposal.callback;
    const tool = toolName(c.name);
    const mode = c.fixes === true && Array.isArray(c.run) ? MODES[tool] : undefined;
    if (mode === undefined || !Array.isArray(c.run)) {
      kept.push(proposal);
      continue;
    }
    tracked ??= trackedOwn(root);
    const matcher = compilePatterns(c.pattern);
    const files = tracked.filter((f) => matcher.matches(f));
    const proof = files.length === 0 ? null : prove(root, c.cwd ?? "", c.run, mode, files);
    if (proof === null) {
      kept.push(proposal);
      continue;
    }
    const said =
      tool === "ruff"
        ? `${c.name} check --diff: --fix would change ${proof.rewrites} of ${proof.files} files now`
        : `${c.name} --check: would rewrite ${proof.rewrites} of ${proof.files} files now`;
    if (proof.rewrites > FEW && proof.rewrites > proof.files * FOREIGN_SHARE) {
      notes.push(`${c.name}: left out, ${said}: not the formatter this project is formatted with`);
      continue;
    }
    // `yarn <tool>`'s version is not read from `yarn --version`
    const versions =
      c.run[0] === "yarn" ? undefined : versionsOf(root, c.cwd ?? "", tool, c.run[0]!);
    if (versions !== undefined && proof.rewrites > 0) {
      // another version's rewrites are not the project's: report, never rewrite
      const left = `${c.name}: ${said}, but ${versions}`;
      if (tool === "ruff") {
        notes.push(`${left}: runs with --no-fix, reporting what the project's ruff would fix`);
        const { fixes: _, ...rest } = c;
        kept.push({
          ...proposal,
          why: `${proposal.why}; ${said}; ${versions}`,
          // `--no-fix`, not just no `--fix`: `fix = true` in ruff's settings would still fix
          callback: { ...rest, run: c.run.map((w) => (w === "--fix" ? "--no-fix" : w)) },
        });
      } else notes.push(`${left}: left out until that version is installed`);
      continue;
    }
    if (versions !== undefined) notes.push(`${c.name}: ${versions}; it would rewrite nothing now`);
    kept.push({ ...proposal, why: `${proposal.why}; ${said}` });
  }
  return { proposals: kept, notes };
}

function versionsOf(root: string, cwd: string, tool: string, bin: string): string | undefined {
  const dir = join(root, cwd);
  const pinned =
    pinnedVersion(new ProjectFiles(dir, root), tool) ?? pinnedVersion(new ProjectFiles(root), tool);
  if (pinned === undefined) return undefined;
  const installed = installedVersion(bin, dir);
  if (installed === undefined || installed === pinned) return undefined;
  const name = tool === "ruff-format" ? "ruff" : tool;
  return `${name} ${installed} here, the project pins ${pinned} (.pre-commit-config.yaml)`;
}

/** `prettier-apps-web` → `prettier`. */
function toolName(name: string): string {
  for (const tool of Object.keys(MODES))
    if (name === tool || name.startsWith(`${tool}-`)) return tool;
  return name;
}

function trackedOwn(root: string): string[] {
  const r = runGit(root, ["ls-files", "-z", "--cached"]);
  if (!r.ok) return [];
  return ownFiles(root, splitNul(r.stdout), (f) => f).own;
}

function prove(
  root: string,
  cwd: string,
  run: readonly string[],
  mode: CheckMode,
  files: readonly string[],
): Proof | null {
  const argv = mode.argv(run);
  if (argv === null) return null;
  const sample = files.slice(0, SAMPLE);
  const prefix = cwd === "" ? "" : `${cwd}/`;
  const names = sample.map((f) =>
    prefix !== "" && f.startsWith(prefix) ? f.slice(prefix.length) : f,
  );
  const r = runSync(argv[0]!, [...argv.slice(1), ...(mode.whole?.(run) ? [] : names)], {
    cwd: join(root, cwd),
    timeoutMs: 60_000,
  });
  // not installed, or it could not run: nothing proven either way
  if (r.error !== null || r.status === null || r.status > 2) return null;
  const output = `${utf8(r.stdout)}\n${utf8(r.stderr)}`;
  return { rewrites: Math.min(mode.count(output), sample.length), files: sample.length };
}
