/**
 * Shared by the real-project e2e tests: a snapshot under tests/fixtures/projects/real-* in a
 * fresh repository, recorders standing in for the tools this machine cannot install, and
 * readers of what they ran.
 */
import { expect } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import { treeState } from "../helpers/tree-state.ts";

export const FIXTURES = join(import.meta.dir, "..", "fixtures", "projects");
export const hasPython = spawnSync("python3", ["--version"]).status === 0;
export const rustfmt = spawnSync("sh", ["-c", "command -v rustfmt"], {
  encoding: "utf8",
}).stdout.trim();

export interface Callback {
  name: string;
  pattern: string[] | string;
  run: string[] | string;
  cwd?: string;
  fixes?: boolean;
  blocking?: boolean;
}

/**
 * A recorder: logs `<folder it ran in>\t<name>\t<args…>`, prints nothing, passes. The line
 * goes out in one write, so recorders that cpilot runs side by side never mix their lines.
 */
export const RECORDER = (log: string, name: string, body = "") =>
  `#!/usr/bin/env bash\nline="$(pwd -P)"$'\\t'${JSON.stringify(name)}\nfor a in "$@"; do line+=$'\\t'"$a"; done\nprintf '%s\\n' "$line" >> '${log}'\n${body}exit 0\n`;

export function writeTool(path: string, text: string): void {
  writeFiles(dirname(path), { [path.slice(dirname(path).length + 1)]: text });
  chmodSync(path, 0o755);
}

export interface Setup {
  readonly root: string;
  readonly log: string;
  readonly bin: string;
  readonly env: Record<string, string>;
}

/** The snapshot in a fresh repository, committed, with `prepare` run before the commit. */
export function setUp(name: string, prepare: (s: Setup) => void = () => {}): Setup {
  const root = tempDir(`cpilot-real-${name}-`, { git: true });
  cpSync(join(FIXTURES, `real-${name}`), root, { recursive: true });
  const log = join(tempDir("cpilot-real-log-"), "ran.tsv");
  writeFileSync(log, "");
  const bin = tempDir("cpilot-real-bin-");
  const path = [bin, ...(rustfmt ? [dirname(rustfmt)] : []), "/usr/local/bin:/usr/bin:/bin"];
  const s = { root, log, bin, env: { PATH: path.join(":"), CI: "" } };
  prepare(s);
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", "snapshot"], { cwd: root });
  return s;
}

export function init(s: Setup): { callbacks: Map<string, Callback>; plan: string } {
  const r = cpilot(["init", "--yes", "--format", "json"], { cwd: s.root, env: s.env });
  expect({ code: r.code, plan: r.stderr }).toEqual({ code: 0, plan: expect.any(String) });
  const config = JSON.parse(readFileSync(join(s.root, "callbacks.config.json"), "utf8")) as {
    callbacks: Callback[];
  };
  return { callbacks: new Map(config.callbacks.map((c) => [c.name, c])), plan: r.stderr };
}

/** What the recorders ran: the folder (relative to the root), the tool, the files it named. */
export function ran(s: Setup): { cwd: string; tool: string; args: string[] }[] {
  return readFileSync(s.log, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      const [cwd, tool, ...args] = l.split("\t");
      const rel = cwd === s.root ? "." : cwd!.slice(s.root.length + 1);
      return { cwd: rel, tool: tool!, args };
    });
}

/** Every file argument a recorder got, as a root-relative path. */
export function filesHanded(s: Setup): string[] {
  return ran(s).flatMap((r) =>
    r.args
      .filter((a) => !a.startsWith("-") && existsSync(resolve(s.root, r.cwd, a)))
      .map((a) => resolve(s.root, r.cwd, a).slice(s.root.length + 1)),
  );
}

export const argv = (c: Callback | undefined) => (Array.isArray(c?.run) ? c.run.join(" ") : c?.run);
export const notOwn = (s: Setup, prefixes: string[]) =>
  Object.entries(treeState(s.root)).filter(([p]) => prefixes.some((x) => p.startsWith(x)));

/** Files whose content changed, but for what git ignores (the tools' caches and builds). */
export function changedOwn(s: Setup, before: Record<string, string>): string[] {
  const after = treeState(s.root);
  const changed = Object.keys({ ...before, ...after }).filter(
    (k) => after[k] !== before[k] && !k.startsWith("("),
  );
  if (changed.length === 0) return [];
  const ignored = spawnSync("git", ["check-ignore", "--stdin"], {
    cwd: s.root,
    input: changed.join("\n"),
    encoding: "utf8",
  }).stdout.split("\n");
  return changed.filter((k) => !ignored.includes(k));
}
