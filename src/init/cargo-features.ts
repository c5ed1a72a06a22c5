import type { RunEvidence } from "./evidence.ts";

/**
 * The features the project's own `cargo clippy` runs turn on (`-F python`, `--features a,b`,
 * `--all-features`), from its CI, hook configs and Makefile. Code behind a feature nobody
 * turns on is never compiled: an agent's error there would pass.
 */
export function clippyFeatures(
  evidence: RunEvidence,
): { args: string[]; where: string } | undefined {
  const named = new Set<string>();
  const files = new Set<string>();
  let all = false;
  for (const { file, line } of evidence.mentions("clippy")) {
    const command = /\bcargo\s+(?:\+\S+\s+)?clippy\b(.*)$/.exec(line)?.[1];
    if (command === undefined) continue;
    const words = command.split(" -- ")[0]!.trim().split(/\s+/);
    const before = named.size + (all ? 1 : 0);
    for (const [i, w] of words.entries()) {
      const value =
        w === "-F" || w === "--features" ? words[i + 1] : /^(?:-F|--features=)(\S+)$/.exec(w)?.[1];
      if (w === "--all-features") all = true;
      if (value === undefined || value.startsWith("-")) continue;
      for (const f of value.replace(/^["']|["']$/g, "").split(/[,\s]+/))
        if (/^[\w/-]+$/.test(f)) named.add(f);
    }
    if (named.size + (all ? 1 : 0) > before || words.includes("--all-features")) files.add(file);
  }
  if (!all && named.size === 0) return undefined;
  return {
    args: all ? ["--all-features"] : ["--features", [...named].sort().join(",")],
    where: [...files].join(", "),
  };
}
