import { join } from "node:path";
import { projectShape } from "../project/packages.ts";
import { alsoOnImportedMembers } from "./deno-members.ts";
import { detectGo } from "./detect-go.ts";
import { detectMake, detectMakeTest } from "./detect-make.ts";
import { detectNode } from "./detect-node.ts";
import { detectPythonWithNotes } from "./detect-python.ts";
import { detectRust } from "./detect-rust.ts";
import { alsoOnLocalModules } from "./go-local-modules.ts";
import { leftoverTsconfigs, SOURCE_TSCONFIG } from "./own-tsconfig.ts";
import { ProjectFiles } from "./project-files.ts";
import { excludeFolders, scopeToPackage } from "./scope-package.ts";
import { ownLinters, sideBySidePackages } from "./side-by-side.ts";
import { pathsFolders, sourceTypes } from "./source-types.ts";
import type { Detection, Proposal } from "./spec.ts";

/** What one folder (the root, or one package) runs, from its scripts and tool configs. */
function detectFolder(root: string, dir: string): Detection {
  const p = new ProjectFiles(dir === "" ? root : join(root, dir), root);
  const rust = detectRust(p);
  const node = detectNode(p);
  const python = detectPythonWithNotes(p);
  const proposals = [...node.proposals, ...rust.proposals, ...python.proposals, ...detectGo(p)];
  const notes = [...node.notes, ...rust.notes, ...python.notes];
  proposals.push(...detectMake(p, proposals.length > 0, ["*", "!*.md"]));
  proposals.push(
    ...detectMakeTest(
      p,
      proposals.some((x) => x.callback.blocking === false),
    ),
  );
  return { proposals, notes, ...(rust.proposals.length > 0 ? { resyncTree: true } : {}) };
}

/** A callback's tool, as init names it before scoping (`eslint` of `eslint-apps-web`). */
const toolOf = (p: Proposal): string => p.callback.name;

/**
 * The root's callbacks and each workspace package's or module's own, run there with its
 * tools. A root callback leaves out packages that run the same tool themselves; a Cargo
 * workspace's root covers its members (cargo builds them together).
 */
export function detectProject(root: string): Detection {
  const shape = projectShape(root);
  const top = detectFolder(root, "");
  const proposals: Proposal[] = [];
  const notes = [...top.notes];
  let resyncTree = top.resyncTree === true;
  const byDir = new Map<string, Proposal[]>();
  const rootTools = new Set(top.proposals.map(toolOf));
  const dirs = [...new Set(shape.packages.map((p) => p.dir).filter((d) => d !== ""))];
  const cargoWorkspace = top.proposals.some((p) => p.callback.name === "clippy");
  const goDirs = shape.packages.filter((p) => p.kind === "go").map((p) => p.dir);
  for (const dir of dirs) {
    const kinds = new Set(shape.packages.filter((p) => p.dir === dir).map((p) => p.kind));
    if (cargoWorkspace && kinds.size === 1 && kinds.has("rust")) continue;
    const found = detectFolder(root, dir);
    const own = found.proposals.filter(
      (p) =>
        !(cargoWorkspace && ["rustfmt", "clippy", "cargo-test"].includes(p.callback.name)) &&
        !(p.rootEvidenceOnly === true && rootTools.has(toolOf(p))),
    );
    byDir.set(dir, own);
    notes.push(...found.notes.map((n) => `${dir}: ${n}`));
    if (found.resyncTree && !cargoWorkspace) resyncTree = true;
  }
  const besideLinted = new Set<string>();
  for (const dir of sideBySidePackages(root, shape)) {
    const own = ownLinters(root, dir, detectFolder(root, dir).proposals);
    if (own.length === 0) continue;
    byDir.set(dir, own);
    besideLinted.add(dir);
  }
  // the root's whole-tree checks read every package with the root's settings: where
  // packages check themselves, the root's is left out
  const packagesTypecheck = [...byDir.values()].some((ps) =>
    ps.some((p) => toolOf(p) === "typecheck"),
  );
  for (const proposal of top.proposals) {
    if (toolOf(proposal) === "typecheck" && packagesTypecheck && !isBuildMode(proposal)) {
      notes.push(
        `typecheck at the root: left out, the packages check their own types (${proposal.why})`,
      );
      continue;
    }
    const own = [...byDir].filter(([, ps]) => ps.some((p) => toolOf(p) === toolOf(proposal)));
    if (proposal.ranBy === "config" && own.some(([d]) => besideLinted.has(d))) {
      notes.push(
        `${toolOf(proposal)} at the root: left out, no root script runs it and the packages beside it run their own (${proposal.why})`,
      );
      continue;
    }
    const left = shape.left.filter((l) => l.kind === "rust" || l.kind === "go").map((l) => l.dir);
    const scoped = excludeFolders(proposal, [...own.map(([d]) => d), ...left]);
    proposals.push(alsoOnLocalModules(scoped, toolOf(proposal), root, "", goDirs));
  }
  const rootBuild = top.proposals.some((p) => toolOf(p) === "typecheck" && isBuildMode(p));
  const nodeDirs = shape.packages.filter((p) => p.kind === "node").map((p) => p.dir);
  const files: { path: string; text: string }[] = [];
  for (const [dir, ps] of byDir)
    for (const p of ps) {
      const reads = toolOf(p) === "typecheck" ? sourceTypes(root, dir, nodeDirs) : undefined;
      if (reads?.file !== undefined) {
        files.push(reads.file);
        proposals.push(checkedAgainstSource(scopeToPackage(p, dir), reads.reads));
        continue;
      }
      if (reads?.why !== undefined)
        notes.push(
          `${dir}: reads ${reads.reads.map((r) => r.name).join(", ")} from built types; ${reads.why}`,
        );
      if (rootBuild && toolOf(p) === "typecheck") continue; // `tsc -b` at the root builds them
      const scoped = scopeToPackage(p, dir);
      proposals.push(
        toolOf(p) === "typecheck"
          ? alsoOnMapped(scoped, root, dir)
          : toolOf(p) === "deno-check"
            ? alsoOnImportedMembers(scoped, root, dir)
            : alsoOnLocalModules(scoped, toolOf(p), root, dir, goDirs),
      );
    }
  const leftovers = leftoverTsconfigs(
    root,
    shape.packages.map((p) => p.dir),
    new Set(files.map((f) => f.path)),
  );
  for (const { path, initWrote } of leftovers)
    notes.push(
      initWrote
        ? `${path}: an earlier cpilot init wrote it and nothing reads built types there now; removed with this plan`
        : `${path}: not as cpilot init writes it (edited, or from an earlier version); left as it is: delete it if nothing uses it`,
    );
  notes.push(
    ...leftNotes(shape.left.filter((l) => !(l.kind === "node" && besideLinted.has(l.dir)))),
  );
  // Two callbacks may not share a name: the second of a kind gets a suffix.
  const names = new Set<string>();
  for (const { callback } of proposals) {
    let name = callback.name;
    for (let i = 2; names.has(name); i++) name = `${callback.name}-${i}`;
    callback.name = name;
    names.add(name);
  }
  return {
    proposals,
    notes,
    ...(resyncTree ? { resyncTree: true } : {}),
    ...(files.length > 0 ? { files } : {}),
    ...(leftovers.some((l) => l.initWrote)
      ? { remove: leftovers.filter((l) => l.initWrote).map((l) => l.path) }
      : {}),
  };
}

/** tsc reads the source its `paths` map to, so a rename there can break the package. */
function alsoOnMapped(proposal: Proposal, root: string, dir: string): Proposal {
  const folders = pathsFolders(root, dir);
  if (folders.length === 0) return proposal;
  const c = proposal.callback;
  const patterns = typeof c.pattern === "string" ? [c.pattern] : c.pattern;
  const more = folders.flatMap((f) => ["ts", "tsx", "mts", "cts"].map((e) => `${f}/**/*.${e}`));
  return {
    why: `${proposal.why}; its tsconfig maps imports to ${folders.length} folder${folders.length === 1 ? "" : "s"} outside it (paths), checked on their edits too`,
    callback: { ...c, pattern: [...patterns, ...more] },
  };
}

/** Through {@link SOURCE_TSCONFIG}, which maps siblings' built declarations to their source; also runs when that changes. */
function checkedAgainstSource(
  proposal: Proposal,
  reads: readonly { name: string; dir: string; types: string; entry: string }[],
): Proposal {
  const c = proposal.callback;
  const run = Array.isArray(c.run) ? c.run.join(" ") : c.run;
  const tsc = run.split(" ")[0]!;
  const patterns = typeof c.pattern === "string" ? [c.pattern] : c.pattern;
  const sources = reads.flatMap((r) =>
    ["ts", "tsx", "mts", "cts"].map(
      (ext) => `${r.dir}/${r.entry.slice(0, r.entry.lastIndexOf("/"))}/**/*.${ext}`,
    ),
  );
  const said = reads.map((r) => `${r.name} (${r.types})`).join(", ");
  return {
    why: `${proposal.why}; it reads ${said} from built types, so it is checked against their source through ${SOURCE_TSCONFIG}`,
    callback: {
      ...c,
      run: `${tsc} --noEmit -p ${SOURCE_TSCONFIG}`,
      pattern: [...patterns, ...sources],
    },
  };
}

/** One note per reason, naming the first few (a fixtures tree has dozens). */
function leftNotes(left: readonly { dir: string; kind: string; why: string }[]): string[] {
  const byWhy = new Map<string, string[]>();
  for (const l of left) {
    const key = `(${l.kind}), ${l.why}`;
    byWhy.set(key, [...(byWhy.get(key) ?? []), l.dir]);
  }
  return [...byWhy].map(([why, dirs]) =>
    dirs.length === 1
      ? `${dirs[0]}: left out ${why}`
      : `${dirs.length} folders left out ${why}: ${dirs.slice(0, 3).join(", ")}${dirs.length > 3 ? ", …" : ""}`,
  );
}

function isBuildMode(p: Proposal): boolean {
  const run = Array.isArray(p.callback.run) ? p.callback.run.join(" ") : p.callback.run;
  return /\stsc\s.*(-b|--build)\b|\s(-b|--build)(\s|$)/.test(` ${run} `);
}

/** True when the project is written in TypeScript (its config can be TypeScript too). */
export function isTypeScriptProject(root: string): boolean {
  const p = new ProjectFiles(root);
  return (
    p.has("tsconfig.json") ||
    p.hasDep("typescript") ||
    p.first("deno.json", "deno.jsonc") !== undefined
  );
}
