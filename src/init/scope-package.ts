import { nameSlug } from "../config/callback-name.ts";
import type { Proposal } from "./spec.ts";

export function patternInPackage(pattern: string, dir: string): string {
  const negated = pattern.startsWith("!");
  const body = negated ? pattern.slice(1) : pattern;
  const trimmed = body.replace(/\/+$/, "");
  // no `/` but a trailing one: the rule matches at any depth below the package
  const anyDepth = !trimmed.includes("/");
  const scoped = anyDepth ? `${dir}/**/${body}` : `${dir}/${body.replace(/^\//, "")}`;
  return negated ? `!${scoped}` : scoped;
}

/** It runs in the package (`cwd`), on the package's files, named after it (`eslint-apps-web`). */
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

/** Packages with their own callback of it. */
export function excludeFolders(proposal: Proposal, dirs: readonly string[]): Proposal {
  if (dirs.length === 0) return proposal;
  const c = proposal.callback;
  const patterns = typeof c.pattern === "string" ? [c.pattern] : c.pattern;
  return {
    ...proposal,
    callback: { ...c, pattern: [...patterns, ...dirs.map((d) => `!${d}/**`)] },
  };
}
