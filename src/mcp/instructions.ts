import type { ResolvedCallback } from "../config/resolve.ts";
import { packageConfigFolders } from "../engine/nested-configs.ts";
import { loadPackageConfigs, shownPath } from "./package-configs.ts";
import type { Project } from "./project.ts";

/** Packages named in the instructions; callback_list lists every one. */
export const MAX_PACKAGES_SHOWN = 10;
/** Callbacks named per config; callback_list lists every one. */
export const MAX_CALLBACKS_SHOWN = 20;
/**
 * How long the packages' configs may take to load before the server answers: a script config
 * that hangs is cut off at its own load timeout, and a client gives up on a server that is
 * slow to start.
 */
export const PACKAGES_BUDGET_MS = 2000;

const INTRO =
  "cpilot's edit tools write files through the project's write gate and run the project's checks " +
  "(callbacks) on every edit; their results come back in the tool result. Prefer them to other edit tools here. " +
  "When a result says a formatter rewrote your text, use the text it shows in your next old_string.";

/**
 * What the tools do and the callbacks that will judge the agent's edits: the project's own,
 * and each package's whose own config judges the edits in its folder (the nearest config
 * decides). Bounded, however many packages: the rest are counted and left to callback_list.
 */
export async function instructions(project: Project): Promise<string> {
  const lines = [INTRO];
  const state = await project.load();
  const folders = packageConfigFolders(project.root);
  if (state.kind === "ok" && state.config.callbacks.length > 0) {
    lines.push("Callbacks in this project (callback_list shows which are on):");
    lines.push(...callbackLines(state.config.callbacks));
  } else if (state.kind === "broken") {
    lines.push(
      `The project's config does not load, so its callbacks do not run until it is fixed: ${firstLine(state.error)}`,
    );
  }
  if (folders.length === 0) return lines.join("\n");
  lines.push(
    `Packages with their own config: it judges the edits in its folder instead of the project's (${folders.length} in all).`,
  );
  const wanted = folders.slice(0, MAX_PACKAGES_SHOWN);
  const shown = await withinBudget(loadPackageConfigs(project.root, wanted), PACKAGES_BUDGET_MS);
  if (shown === null) {
    lines.push(
      `Their configs had not loaded within ${PACKAGES_BUDGET_MS / 1000} s when this session started: callback_list lists their callbacks.`,
    );
    return lines.join("\n");
  }
  for (const pkg of shown) {
    const head = `In ${shownPath(pkg.folder)} (${shownPath(pkg.label)}):`;
    if (typeof pkg.config === "string") {
      lines.push(
        `${head} its config does not load, so writes there are refused until it is fixed: ${pkg.config}`,
      );
    } else if (pkg.config.callbacks.length === 0) {
      lines.push(`${head} no callbacks`);
    } else {
      lines.push(head, ...callbackLines(pkg.config.callbacks));
    }
  }
  const more = folders.length - shown.length;
  if (more > 0)
    lines.push(
      `… and ${more} more package${more === 1 ? "" : "s"} with their own config: callback_list lists them all.`,
    );
  return lines.join("\n");
}

function callbackLines(callbacks: readonly ResolvedCallback[]): string[] {
  const lines = callbacks.slice(0, MAX_CALLBACKS_SHOWN).map((cb) => {
    const how = cb.blocking ? "blocking" : "background";
    const about = cb.description ? `: ${firstLine(cb.description)}` : "";
    return `- ${cb.name} (${cb.patterns.join(" ")}, ${how})${about}`;
  });
  const more = callbacks.length - MAX_CALLBACKS_SHOWN;
  if (more > 0) lines.push(`- … ${more} more (callback_list lists them)`);
  return lines;
}

/** `work`'s result, or null when it takes longer than `ms` (it goes on meanwhile). */
async function withinBudget<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? text;
}
