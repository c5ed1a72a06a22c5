import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { isAbsolute, join, parse, relative, resolve, sep } from "node:path";

export type Containment =
  | {
      ok: true;
      /** Normalized, as written (symlinks not followed). */
      absolute: string;
      /** Where the write really lands, relative to the real root. */
      relative: string;
      lexical: string;
      /** Where the path exactly as written lands (`link/../x` after following `link`, as open(2) does). */
      asWritten: string;
    }
  | { ok: false; kind: "nul" | "outside" | "symlink" | "loop"; reason: string };

const MAX_SYMLINKS = 40;

export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** Where the kernel lands opening `path`: every symlink followed, a dangling last one too, `..` after the link before it. Null on a loop. */
export function physicalPath(path: string): string | null {
  const { root } = parse(path);
  const pending = path.slice(root.length).split(sep).filter(Boolean).reverse();
  let current = root;
  let exists = true;
  let links = 0;
  while (pending.length > 0) {
    const part = pending.pop() as string;
    if (part === ".") continue;
    if (part === "..") {
      current = resolve(current, "..");
      continue;
    }
    const next = join(current, part);
    if (!exists) {
      current = next;
      continue;
    }
    let isLink = false;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      exists = false;
      current = next;
      continue;
    }
    if (!isLink) {
      current = next;
      continue;
    }
    if (++links > MAX_SYMLINKS) return null;
    const target = readlinkSync(next);
    if (isAbsolute(target)) {
      const parsed = parse(target);
      current = parsed.root;
      pending.push(...target.slice(parsed.root.length).split(sep).filter(Boolean).reverse());
    } else {
      pending.push(...target.split(sep).filter(Boolean).reverse());
    }
  }
  return current;
}

/** The root itself may be (below) a symlink, e.g. macOS /tmp. */
function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return physicalPath(root) ?? root;
  }
}

/**
 * Resolve `path` and check that it stays inside `root`, also after following symlinks as the
 * kernel will on open. Used by every surface that writes for an agent: write to the returned
 * `absolute`, normalized, so `dir-link/../x` cannot land elsewhere.
 */
export function containPath(root: string, path: string): Containment {
  if (path.includes("\0"))
    return { ok: false, kind: "nul", reason: "the path contains a NUL byte" };
  const lexicalRoot = resolve(root);
  const physicalRoot = realRoot(lexicalRoot);
  const absolute = resolve(lexicalRoot, path);
  if (!isInside(lexicalRoot, absolute) && !isInside(physicalRoot, absolute)) {
    return {
      ok: false,
      kind: "outside",
      reason: `it resolves to ${absolute}, outside the project root ${root}`,
    };
  }
  // Both the path as written (the kernel applies `..` after symlinks) and its normalized form
  // must land inside the root.
  for (const candidate of new Set([
    absolute,
    isAbsolute(path) ? path : `${lexicalRoot}${sep}${path}`,
  ])) {
    const real = physicalPath(candidate);
    if (real === null) {
      return {
        ok: false,
        kind: "loop",
        reason: `it goes through a symlink loop (more than ${MAX_SYMLINKS})`,
      };
    }
    if (!isInside(physicalRoot, real)) {
      return {
        ok: false,
        kind: "symlink",
        reason: `it leads through a symlink to ${real}, outside the project root`,
      };
    }
  }
  const real = physicalPath(absolute) as string;
  const written = physicalPath(isAbsolute(path) ? path : `${lexicalRoot}${sep}${path}`) as string;
  const base = isInside(lexicalRoot, absolute) ? lexicalRoot : physicalRoot;
  return {
    ok: true,
    absolute,
    relative: relative(physicalRoot, real).split(sep).join("/"),
    lexical: relative(base, absolute).split(sep).join("/"),
    asWritten: relative(physicalRoot, written).split(sep).join("/"),
  };
}
