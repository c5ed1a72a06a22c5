import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ReachAgain, RunResult } from "../model/outcome.ts";
import type { PlannedRun } from "./plan.ts";

/** Cargo's subcommand that can skip upstream crates' lints (`--no-deps`); an upstream compile error stops any build. */
const CARGO_BUILDS = new Set(["clippy"]);

/** Safe as one word of a shell command. */
const CRATE_NAME = /^[A-Za-z0-9_-]+$/;

function packageName(manifest: string): string | null {
  const section = /^\[package\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(manifest)?.[1] ?? "";
  return /^\s*name\s*=\s*"([^"]+)"\s*$/m.exec(section)?.[1] ?? null;
}

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

function scopeFlags(crates: readonly string[]): string[] {
  return [...crates.flatMap((c) => ["-p", c]), "--no-deps"];
}

/** `run` with `-p <crate>` per crate and `--no-deps`; null when not a `cargo clippy` or already scoped. */
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
 * A `cargo clippy` run that failed at old errors before reaching the edited files, run again
 * for their crates only, so their own errors are found. Null when there is no such run to make.
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
