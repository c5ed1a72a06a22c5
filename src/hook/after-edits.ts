import { postNotice } from "../agent-session/inbox.ts";
import { takeDelivery } from "../agent-session/notices.ts";
import { claimOnce } from "../agent-session/session-state.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { pathInRoot } from "../match/root-relative.ts";
import type { FileChange } from "../model/batch.ts";
import type { HookAnswer, WrittenFile } from "../model/hook.ts";
import type { AgentReport } from "../ui/agent/render-outcome.ts";
import { bookkeep } from "../util/bookkeeping.ts";
import { CHECKS_FAILED_AFTER_EDIT } from "./messages.ts";

/**
 * When the agent's batch-end event will run the batch callbacks (`batchEndFollows`), only
 * per-file ones run now; else all run and the call is claimed (`batchRunClaim`), so a
 * batch end that comes after all skips its files. A twice-reported edit (`once`) is
 * checked once; what an `unheard` call found waits in the inbox.
 */
export async function afterWrite(call: {
  config: ResolvedConfig;
  agent: string;
  session: string;
  cwd: string;
  edits: readonly WrittenFile[];
  callId?: string | undefined;
  once?: string | undefined;
  unheard?: boolean | undefined;
  batchEndFollows: () => boolean;
}): Promise<HookAnswer> {
  const { config, session } = call;
  const root = config.root;
  const inRoot = filesInRoot(root, call.cwd, call.edits);
  const once = call.once;
  const first =
    once === undefined ||
    inRoot.length === 0 ||
    claimOnce(root, session, `edit-${safeClaim(once)}`);
  const files = first ? inRoot : [];
  const perFile = files.length > 0 && call.batchEndFollows();
  if (files.length > 0 && !perFile && call.callId) {
    const claim = batchRunClaim(call.callId);
    bookkeep(root, false, () => claimOnce(root, session, claim));
  }
  const at = { config, agent: call.agent, session, files, seenFrom: call.cwd };
  if (call.unheard === true) {
    const report = await afterEdits({ ...at, deliver: false });
    const text = reportText(report);
    if (text !== "") {
      const failing = report.failures.length > 0;
      bookkeep(root, "", () => postNotice(root, session, { kind: "after-edit", text, failing }));
    }
    return report;
  }
  return afterEdits({ ...at, ...(perFile ? { per: "file" as const } : {}) });
}

export function batchRunClaim(callId: string): string {
  return `batch-run-${safeClaim(callId)}`;
}

const safeClaim = (id: string): string => id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);

/** Relative to the root, each once; a file outside the project is not the project's to check. */
export function filesInRoot(
  root: string,
  cwd: string,
  edits: readonly WrittenFile[],
): FileChange[] {
  const seen = new Map<string, FileChange>();
  for (const edit of edits) {
    const rel = pathInRoot(root, cwd, edit.path);
    if (rel === null) continue;
    const prev = seen.get(rel);
    seen.set(rel, { path: rel, kind: prev?.kind === "created" ? "created" : edit.kind });
  }
  return [...seen.values()];
}

/** Only per-file callbacks when `per` is "file"; then what waits in the inbox, failures first. */
export async function afterEdits(options: {
  config: ResolvedConfig;
  agent: string;
  session: string;
  files: readonly FileChange[];
  per?: "file";
  /** false: the results that waited stay in the inbox (the reply reaches nobody). */
  deliver?: boolean;
  /** Where the agent works: the paths it is told are relative to it. */
  seenFrom?: string;
}): Promise<AgentReport> {
  const { config, agent, session, files, per } = options;
  try {
    const none = { failing: [], info: [] };
    const waiting =
      options.deliver === false
        ? none
        : bookkeep(config.root, none, () => takeDelivery(config.root, session));
    if (
      !anyCallbackMatches(config, files, per) &&
      !(await import("./edits.ts")).holdsNested(config.root, files)
    )
      return { failures: [...waiting.failing], info: [...waiting.info] };
    const { handleEdits } = await import("./edits.ts");
    const { report } = await handleEdits({
      config,
      batch: { root: config.root, files, origin: { surface: "hook", agent, session } },
      session,
      ...(per ? { per } : {}),
      ...(options.seenFrom ? { seenFrom: options.seenFrom } : {}),
      extraEnv: { CP_AGENT: agent, CP_SESSION_ID: session },
    });
    return {
      failures: [...report.failures, ...waiting.failing],
      info: [...report.info, ...waiting.info],
    };
  } finally {
    if (files.length > 0) {
      const { noteToolEdits } = await import("./shell-edits.ts");
      const paths = files.map((f) => f.path);
      bookkeep(config.root, undefined, () => noteToolEdits(config, session, paths));
    }
  }
}

/** Failures first with a heading; "" when there is nothing. */
export function reportText(report: HookAnswer): string {
  const parts = [...report.failures, ...report.info];
  if (report.failures.length > 0) parts.unshift(CHECKS_FAILED_AFTER_EDIT);
  return parts.join("\n\n");
}

/** From the compiled patterns alone, so an edit nothing matches never loads the engine. */
export function anyCallbackMatches(
  config: ResolvedConfig,
  files: readonly { readonly path: string }[],
  per?: "file" | "batch",
): boolean {
  return config.callbacks.some(
    (cb) => (per === undefined || cb.per === per) && files.some((f) => cb.matcher.matches(f.path)),
  );
}
