import { basename } from "node:path";
import { readManaged } from "../config/managed.ts";
import { isDeletion, readProposals } from "../config/proposals.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { isActive, readToggles } from "../config/state.ts";
import { renderTable } from "../ui/table.ts";
import type { SessionPause } from "./session-pause.ts";

/** Tools may change those. */
export function managedNames(root: string): Set<string> {
  try {
    return new Set(
      readManaged(root)
        .map((c) => (c as { name?: unknown })?.name)
        .filter((n): n is string => typeof n === "string"),
    );
  } catch {
    return new Set();
  }
}

/**
 * One config's callbacks as callback_list shows them: a table, whether each is on here (the
 * person's toggles in the config's folder, the agent's pauses for it), and what waits for
 * the person's approval. `folder`: the config's, relative to the project root ("" for its own).
 */
export function callbackTable(
  config: ResolvedConfig,
  folder: string,
  paused: SessionPause,
): string[] {
  const toggles = readToggles(config.root);
  const managed = managedNames(config.root);
  const pending = pendingLines(config.root);
  if (config.callbacks.length === 0)
    return ["No callbacks yet: callback_upsert proposes one.", ...pending];
  const rows = config.callbacks.map((cb) => [
    cb.name,
    cb.description || "-",
    cb.patterns.join(" "),
    cb.blocking ? "yes" : "no",
    cb.per,
    !isActive(cb, toggles) ? "no" : paused.has(cb.name, folder) ? "paused" : "yes",
    managed.has(cb.name) ? "managed" : "config",
  ]);
  const table = renderTable(
    ["name", "description", "pattern", "blocking", "per", "enabled", "defined in"],
    rows,
  );
  const notes = [
    `config: ${basename(config.path) || "the config"}, written by people (callback_upsert cannot change those); managed: callbacks.managed.json`,
  ];
  if (toggles.allDisabled)
    notes.push("The person paused every callback here (cpilot disable --all).");
  if (paused.allPaused(folder))
    notes.push(
      "You paused every callback for this session (callback_toggle with all: true, enabled: true resumes them).",
    );
  return [table, ...notes, ...pending];
}

/** [] when none (or unreadable). */
function pendingLines(root: string): string[] {
  let proposals: ReturnType<typeof readProposals>;
  try {
    proposals = readProposals(root);
  } catch {
    return [];
  }
  if (proposals.length === 0) return [];
  return [
    "Waiting for the person's approval (they do not run until then):",
    ...proposals.map(
      (p) => `- ${p.name}: ${isDeletion(p) ? "delete it" : `run ${JSON.stringify(p.run)}`}`,
    ),
  ];
}
