/**
 * Codex runs a hook only when the project is trusted and the hook's
 * `hooks.state."<key>".trusted_hash` in the user's config.toml equals its current hash
 * (`codex exec` skips untrusted hooks without a word). Both are read through Codex's
 * app-server, and trust recorded the same way.
 */

import {
  type AppServerSession,
  type CodexHookEntry,
  listHooks,
  openAppServer,
  upsertUserConfig,
} from "./app-server.ts";
import { isCodexCpilotCommand } from "./hooks-file.ts";

export type CodexHookState =
  /** Not on PATH, or its app-server did not answer. */
  | { readonly kind: "unknown" }
  | { readonly kind: "project-untrusted" }
  /** `pending`: the ones Codex will not run yet. */
  | {
      readonly kind: "listed";
      readonly ours: readonly CodexHookEntry[];
      readonly pending: readonly CodexHookEntry[];
    };

/** `CPILOT_CODEX` names another (a pinned copy). */
export function codexProgram(env: NodeJS.ProcessEnv): string {
  return env.CPILOT_CODEX || "codex";
}

async function withAppServer<T>(
  root: string,
  env: NodeJS.ProcessEnv,
  use: (session: AppServerSession) => Promise<T>,
): Promise<T | null> {
  const session = await openAppServer(codexProgram(env), root, env);
  if (session === null) return null;
  try {
    return await use(session);
  } catch {
    return null;
  } finally {
    session.close();
  }
}

async function stateOf(
  session: AppServerSession,
  root: string,
  hooksPath: string,
): Promise<CodexHookState> {
  const list = await listHooks(session, root);
  const ours = list.hooks.filter(
    (h) => h.sourcePath === hooksPath && isCodexCpilotCommand(h.command),
  );
  if (ours.length === 0 && list.warnings.some((w) => /until the project is trusted/.test(w)))
    return { kind: "project-untrusted" };
  const pending = ours.filter((h) => !h.enabled || h.trustStatus !== "trusted");
  return { kind: "listed", ours, pending };
}

export async function codexHookState(
  root: string,
  hooksPath: string,
  env: NodeJS.ProcessEnv,
): Promise<CodexHookState> {
  return (
    (await withAppServer(root, env, (session) => stateOf(session, root, hooksPath))) ?? {
      kind: "unknown",
    }
  );
}

export interface TrustOutcome {
  readonly state: CodexHookState;
  readonly recorded: readonly string[];
  readonly configPath: string | null;
}

/** Only entries whose command is cpilot's; the project too with `trustProject`. */
export async function trustCpilotHooks(
  root: string,
  hooksPath: string,
  env: NodeJS.ProcessEnv,
  trustProject: boolean,
): Promise<TrustOutcome> {
  const outcome = await withAppServer(root, env, async (session) => {
    const recorded: string[] = [];
    let configPath: string | null = null;
    let state = await stateOf(session, root, hooksPath);
    if (state.kind === "project-untrusted" && trustProject) {
      configPath = await upsertUserConfig(session, [
        { keyPath: "projects", value: { [root]: { trust_level: "trusted" } } },
      ]);
      recorded.push(`projects."${root}".trust_level = "trusted"`);
      state = await stateOf(session, root, hooksPath);
    }
    if (state.kind === "listed") {
      const untrusted = state.pending.filter((h) => h.enabled);
      if (untrusted.length > 0) {
        configPath = await upsertUserConfig(
          session,
          untrusted.map((h) => ({
            keyPath: "hooks.state",
            value: { [h.key]: { trusted_hash: h.currentHash } },
          })),
        );
        for (const h of untrusted)
          recorded.push(`hooks.state."${h.key}".trusted_hash (${h.eventName}: ${h.command})`);
        state = await stateOf(session, root, hooksPath);
      }
    }
    return { state, recorded, configPath };
  });
  return outcome ?? { state: { kind: "unknown" }, recorded: [], configPath: null };
}
