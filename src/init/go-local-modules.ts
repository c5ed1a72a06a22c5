import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import type { Proposal } from "./spec.ts";

/**
 * The project's other Go modules that the module in `dir` compiles from their folders, not
 * from a download: those its go.mod `replace`s with a local path (`=> ../`), and, under a
 * go.work, those it requires by module path. A rename there can break it, though none of its
 * own files changed. Root-relative folders ("" for the root), of `modules` only.
 */
export function localGoModules(root: string, dir: string, modules: readonly string[]): string[] {
  const own = goMod(root, dir);
  if (own === undefined) return [];
  const out = new Set<string>();
  for (const target of own.replaced) {
    const folder = posix.normalize(posix.join(dir, target)).replace(/\/$/, "");
    const rel = folder === "." ? "" : folder;
    if (rel !== dir && modules.includes(rel)) out.add(rel);
  }
  if (goMod(root, "", "go.work") !== undefined)
    for (const other of modules) {
      const path = other === dir ? undefined : goMod(root, other)?.module;
      if (path !== undefined && own.required.has(path)) out.add(other);
    }
  return [...out].sort();
}

interface GoMod {
  readonly module: string | undefined;
  readonly required: ReadonlySet<string>;
  /** The local folders of its `replace` lines, relative to its own folder. */
  readonly replaced: readonly string[];
}

function goMod(root: string, dir: string, name = "go.mod"): GoMod | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, dir, name), "utf8");
  } catch {
    return undefined;
  }
  let module: string | undefined;
  const required = new Set<string>();
  const replaced: string[] = [];
  let block: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\/\/.*$/, "").trim();
    if (line === ")") {
      block = undefined;
      continue;
    }
    const opens = /^(require|replace)\s*\($/.exec(line);
    if (opens) {
      block = opens[1];
      continue;
    }
    const [verb, rest] =
      block !== undefined ? [block, line] : [line.split(/\s+/)[0], line.replace(/^\S+\s*/, "")];
    if (verb === "module") module = unquote(rest.split(/\s+/)[0] ?? "");
    else if (verb === "require" && rest !== "") required.add(unquote(rest.split(/\s+/)[0]!));
    else if (verb === "replace") {
      // `old [version] => new [version]`: a local path starts with ./ or ../ and has no version
      const target = unquote(rest.split("=>")[1]?.trim().split(/\s+/)[0] ?? "");
      if (target.startsWith("./") || target.startsWith("../") || target === "." || target === "..")
        replaced.push(target);
    }
  }
  return { module, required, replaced };
}

const unquote = (s: string): string => s.replace(/^"|"$/g, "");

const GO_CHECKS = new Set(["go-vet", "golangci-lint", "go-test"]);

/**
 * A module's vet, lint and tests also run on edits to the modules it compiles from their
 * folders: their `.go` files and go.mod, minus the modules nested in them.
 */
export function alsoOnLocalModules(
  proposal: Proposal,
  tool: string,
  root: string,
  dir: string,
  modules: readonly string[],
): Proposal {
  if (!GO_CHECKS.has(tool)) return proposal;
  const local = localGoModules(root, dir, modules);
  if (local.length === 0) return proposal;
  const within = (d: string, f: string) => f === "" || d === f || d.startsWith(`${f}/`);
  const more = local.flatMap((f) => [
    f === "" ? "*.go" : `${f}/**/*.go`,
    f === "" ? "/go.mod" : `${f}/go.mod`,
    // a module nested in it is another module, unless it is this one or holds it
    ...modules.filter((m) => m !== f && within(m, f) && !within(dir, m)).map((m) => `!${m}/**`),
  ]);
  const c = proposal.callback;
  const patterns = typeof c.pattern === "string" ? [c.pattern] : c.pattern;
  const named = local.map((f) => (f === "" ? "the root module" : f)).join(", ");
  return {
    ...proposal,
    why: `${proposal.why}; it compiles ${named} from ${local.length === 1 ? "its folder" : "their folders"} (a local replace or go.work), checked on ${local.length === 1 ? "its" : "their"} edits too`,
    callback: { ...c, pattern: [...patterns, ...more] },
  };
}
