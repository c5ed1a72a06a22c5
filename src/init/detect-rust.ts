import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { clippyFeatures } from "./cargo-features.ts";
import { RunEvidence } from "./evidence.ts";
import { iniSections, type ProjectFiles } from "./project-files.ts";
import type { Proposal } from "./spec.ts";

/** The edition Cargo.toml declares (a workspace's shared one too), or undefined. */
export function cargoEdition(cargoToml: string): string | undefined {
  const sections = iniSections(cargoToml);
  return (
    sections.get("package")?.get("edition") ?? sections.get("workspace.package")?.get("edition")
  );
}

/**
 * rustfmt with the crate's edition and clippy with warnings as errors. Not `cargo fmt --
 * FILES`: it formats the whole crate. rustfmt still rewrites child modules of a file, so
 * the config reports rewrites beyond the batch (`resync: "tree"`).
 */
export function detectRust(p: ProjectFiles): { proposals: Proposal[]; notes: string[] } {
  const text = p.text("Cargo.toml");
  if (text === undefined) return { proposals: [], notes: [] };
  const sections = iniSections(text);
  const workspace = sections.has("workspace");
  const edition = cargoEdition(text);
  const all = workspace ? ["--workspace"] : [];
  const notes: string[] = [];
  const features = clippyFeatures(new RunEvidence(p));
  const nightly = nightlyBench(p);
  // `--all-targets` would fail on stable at the bench's `#![feature]` (E0554) on every check.
  const targets = nightly === undefined ? ["--all-targets"] : ["--tests", "--examples"];
  if (nightly !== undefined)
    notes.push(
      `${nightly} needs nightly (#![feature]): clippy checks the library, binaries, tests and examples, not the benches`,
    );
  // A workspace whose root names no edition: its members may differ, and cargo fmt knows each,
  // unless the project's rustfmt.toml names the one it formats with (rustfmt run per file).
  const config = p.first("rustfmt.toml", ".rustfmt.toml");
  const configEdition =
    config === undefined
      ? undefined
      : iniSections(p.text(config) ?? "")
          .get("")
          ?.get("edition");
  const fmtEdition = edition ?? (workspace ? configEdition : undefined);
  const fmt =
    fmtEdition === undefined && workspace
      ? ["cargo", "fmt", "--all"]
      : ["rustfmt", "--edition", fmtEdition ?? "2015", "{files}"];
  if (edition === undefined && !workspace)
    notes.push("Cargo.toml names no edition: cargo uses 2015, so rustfmt does too");
  return {
    notes,
    proposals: [
      {
        why:
          edition === undefined && fmtEdition !== undefined
            ? `Cargo.toml; ${config} (edition ${fmtEdition})`
            : `Cargo.toml${edition ? ` (edition ${edition})` : ""}`,
        callback: {
          name: "rustfmt",
          description: `format (edition ${fmtEdition ?? "from each crate"})`,
          pattern: "*.rs",
          run: fmt,
          timeout: 60,
          fixes: true,
        },
      },
      {
        why: `Cargo.toml${workspace ? " (a workspace)" : ""}${features ? `; ${features.where} runs it with ${features.args.join(" ")}` : ""}`,
        callback: {
          name: "clippy",
          description: "compile and lint; warnings fail",
          pattern: ["*.rs", "Cargo.toml"],
          // `--message-format short`: one line per message, parsed and readable in `cpilot logs`;
          // `json` would be unreadable there and add only the lint's name.
          run: [
            "cargo",
            "clippy",
            ...all,
            ...targets,
            ...(features?.args ?? []),
            "--quiet",
            "--message-format",
            "short",
            "--",
            "-D",
            "warnings",
          ].join(" "),
          timeout: 300,
          overlap: "replace",
          successMessage: "clippy passed",
        },
      },
      {
        why: `Cargo.toml${workspace ? " (a workspace)" : ""}`,
        callback: {
          name: "cargo-test",
          description: "tests, in the background",
          pattern: ["*.rs", "Cargo.toml"],
          run: ["cargo", "test", ...all, "--quiet"].join(" "),
          timeout: 900,
          blocking: false,
          overlap: "replace",
        },
      },
    ],
  };
}

/** `#![feature(test)]`, as libtest `#[bench]` crates have, unless the project pins nightly itself. */
function nightlyBench(p: ProjectFiles): string | undefined {
  const toolchain = p.text("rust-toolchain.toml") ?? p.text("rust-toolchain") ?? "";
  if (toolchain.includes("nightly")) return undefined;
  let names: string[];
  try {
    names = readdirSync(join(p.root, "benches"));
  } catch {
    return undefined;
  }
  for (const name of names.sort()) {
    const path = name.endsWith(".rs") ? `benches/${name}` : `benches/${name}/main.rs`;
    try {
      if (/^\s*#!\[feature\(/m.test(readFileSync(join(p.root, path), "utf8"))) return path;
    } catch {
      // not a file, or unreadable: not a nightly bench we can tell of
    }
  }
  return undefined;
}
