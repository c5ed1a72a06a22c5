import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ReachAgain, RunResult } from "../model/outcome.ts";
import type { PlannedRun } from "./plan.ts";

/**
 * Cargo's subcommand that can skip the lints of the crates a crate depends on (`--no-deps`):
 * a lint denied upstream then no longer stops the build. (An upstream compile error stops
 * any build of the crates that depend on it: no second run can pass it.)
 */
const CARGO_BUILDS = new Set(["clippy"]);

/** A crate name that is safe as one word of a shell command. */
const CRATE_NAME = /^[A-Za-z0-9_-]+$/;

/** `[package]`'s `name` in a Cargo.toml (a workspace's own Cargo.toml has none). */
function packageName(manifest: string): string | null {
  const section = /^\[package\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(manifest)?.[1] ?? "";
  return /^\s*name\s*=\s*"([^"]+)"\s*$/m.exec(section)?.[1] ?? null;
}

/** The crate a root-relative file belongs to: the nearest Cargo.toml with a package above it. */
function crateOf(root: string, file: string): string | null {
  const parts = file.split("/").slice(0, -1);
  for (let n = parts.length; n >= 0; n--) {
    let manifest: string;
    try {
      manifest = readFileSync(join(root, ...parts.slice(0, n), "Cargo.toml"), "utf8");
    } catch {
      continue;
    }
    const name = packageName(manifest);
    if (name !== null) return CRATE_NAME.test(name) ? name : null;
  }
  return null;
}

/** What picks `crates` alone, without the lints of the crates they depend on. */
function scopeFlags(crates: readonly string[]): string[] {
  return [...crates.flatMap((c) => ["-p", c]), "--no-deps"];
}

/**
 * The command `run` with `-p <crate>` for each of `crates` and `--no-deps` after its cargo
 * subcommand; null when it is not a `cargo clippy` or already picks its packages.
 */
function scoped(
  run: string | readonly string[],
  crates: readonly string[],
): string | string[] | null {
  const flags = scopeFlags(crates);
  if (typeof run === "string") {
    if (/(^|\s)(-p|--package|--workspace|--all|--no-deps)(=|\s|$)/.test(run)) return null;
    const found = /(^|[\s;&|(])(\S*\/)?cargo(\s+\+\S+)?\s+([a-z]+)(?=\s|$)/.exec(run);
    if (found === null || !CARGO_BUILDS.has(found[4] ?? "")) return null;
    const at = found.index + found[0].length;
    return `${run.slice(0, at)} ${flags.join(" ")}${run.slice(at)}`;
  }
  if (run.some((w) => /^(-p|--package|--workspace|--all|--no-deps)(=|$)/.test(w))) return null;
  const at = run.findIndex((w, i) => /(^|\/)cargo$/.test(w) && CARGO_BUILDS.has(run[i + 1] ?? ""));
  if (at === -1) return null;
  return [...run.slice(0, at + 2), ...flags, ...run.slice(at + 2)];
}

/**
 * A `cargo clippy` run that failed at errors that were there before, before it reached the
 * edited files (`unreached`), run again for the crates of those files only (`-p`, with
 * `--no-deps`): the crates they depend on are built without their lints, so the edited
 * crate is reached and its own errors are found. Null when there is no such run to make
 * (another tool, a fixer, a command cpilot cannot scope, or no crate found for the files).
 */
export function reachAgain(
  root: string,
  planned: PlannedRun,
  result: RunResult,
): { planned: PlannedRun; why: ReachAgain } | null {
  const unreached = result.unreached ?? [];
  const { callback } = planned;
  if (unreached.length === 0 || callback.fixes || typeof callback.run === "function") return null;
  const crates = [...new Set(unreached.map((f) => crateOf(root, f)))];
  if (crates.length === 0 || crates.some((c) => c === null)) return null;
  const run = scoped(callback.run, crates as string[]);
  if (run === null) return null;
  const stoppedAt = (result.diagnostics ?? []).filter((d) => d.severity === "error");
  const stoppedIn = new Set<string>();
  for (const d of stoppedAt) {
    const crate = d.file === "" || d.file.startsWith("/") ? null : crateOf(root, d.file);
    if (crate !== null && !crates.includes(crate)) stoppedIn.add(crate);
  }
  return {
    planned: { callback: { ...callback, run }, files: unreached },
    why: {
      runId: result.id,
      stoppedIn: [...stoppedIn],
      crates: crates as string[],
      flags: scopeFlags(crates as string[]).join(" "),
    },
  };
}
