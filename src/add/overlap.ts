import { toolOf } from "../engine/tool-exit-words.ts";

/** Tools with subcommands that are different jobs: `cargo check` is not `cargo test`. */
const WITH_SUBCOMMAND = new Set([
  "cargo",
  "go",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "deno",
  "uv",
  "make",
  "just",
]);

/** Jobs that include another: clippy compiles (what cargo check does), then lints. */
const INCLUDES: Record<string, readonly string[]> = {
  "cargo clippy": ["cargo check", "cargo build"],
  "golangci-lint run": ["go vet"],
  biome: ["prettier"],
};

/** What a run does, as a job name: its tool, and the subcommand where that is the job. */
export function jobOf(run: unknown): string | null {
  const tool = toolOf(run);
  if (tool === null) return null;
  if (!WITH_SUBCOMMAND.has(tool) && tool !== "golangci-lint") return tool;
  const words = Array.isArray(run) ? (run as string[]) : String(run).split(/\s+/);
  const at = words.findIndex((w) => w.split("/").pop() === tool);
  const sub = words.slice(at + 1).find((w) => !w.startsWith("-"));
  return sub === undefined ? tool : `${tool} ${sub}`;
}

/** An existing callback the new one would do the job of (the same job, or one it includes). */
export function findOverlap(
  run: unknown,
  existing: readonly { readonly name: string; readonly run: unknown }[],
): { name: string; job: string } | null {
  const job = jobOf(run);
  if (job === null) return null;
  for (const cb of existing) {
    const theirs = jobOf(cb.run);
    if (theirs === null) continue;
    if (theirs === job || (INCLUDES[job] ?? []).includes(theirs))
      return { name: cb.name, job: theirs };
  }
  return null;
}
