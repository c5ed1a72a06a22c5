import { nameSlug } from "../config/callback-name.ts";
import type { Proposal } from "./spec.ts";

/** A gitignore-style pattern of a package's folder as one of the project root's. */
export function patternInPackage(pattern: string, dir: string): string {
  const negated = pattern.startsWith("!");
  const body = negated ? pattern.slice(1) : pattern;
  const trimmed = body.replace(/\/+$/, "");
  // no `/` but a trailing one: the rule matches at any depth below the package
  const anyDepth = !trimmed.includes("/");
  const scoped = anyDepth ? `${dir}/**/${body}` : `${dir}/${body.replace(/^\//, "")}`;
  return negated ? `!${scoped}` : scoped;
}

/**
 * A proposal found in a package, as a callback of the whole project: it runs in the
 * package (`cwd`), on the package's files, named after it (`eslint-apps-web`).
 */
export function scopeToPackage(proposal: Proposal, dir: string): Proposal {
  const c = proposal.callback;
  const patterns = typeof c.pattern === "string" ? [c.pattern] : c.pattern;
  return {
    why: `${dir}: ${proposal.why}`,
    callback: {
      ...c,
      name: nameSlug(`${c.name}-${dir}`) || c.name,
      pattern: patterns.map((p) => patternInPackage(p, dir)),
      cwd: dir,
    },
  };
}

/** A root proposal that leaves out the files of `dirs` (packages with their own callback of it). */
export function excludeFolders(proposal: Proposal, dirs: readonly string[]): Proposal {
  if (dirs.length === 0) return proposal;
  const c = proposal.callback;
  const patterns = typeof c.pattern === "string" ? [c.pattern] : c.pattern;
  return {
    ...proposal,
    callback: { ...c, pattern: [...patterns, ...dirs.map((d) => `!${d}/**`)] },
  };
}
