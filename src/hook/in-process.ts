// Answers a hook call inside a long-lived process as the call's own process would.
import { ConfigRefused } from "../config/load.ts";
import type { HookAgent, HookReply } from "../model/hook.ts";
import { redirectStderr } from "../platform/stdio.ts";

export interface Home {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly umask: number;
}

export interface HookRequest {
  readonly stdin: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly umask: number;
}

export type HookResponse =
  | ({ readonly served: true } & HookReply)
  /** The listener is busy, or the config must load fresh. */
  | { readonly served: false; readonly reason: string };

/** In the call's environment, folder and umask meanwhile. */
export async function answerHookRequest(
  agent: HookAgent,
  request: HookRequest,
  home: Home,
): Promise<HookResponse> {
  const handle = await agent.hook();
  try {
    replaceEnv(request.env);
    process.chdir(request.cwd);
    process.umask(request.umask);
  } catch (err) {
    restore(home);
    return { served: false, reason: `cannot take the caller's place: ${String(err)}` };
  }
  // What the call's own process would have written to stderr goes back with the answer.
  let stderr = "";
  redirectStderr((text) => {
    stderr += text;
  });
  try {
    const reply = await handle(request.stdin, { cwd: request.cwd, env: process.env });
    const text = (stderr + (reply.stderr ?? "")).replace(/\n$/, "");
    return { served: true, ...reply, ...(text !== "" ? { stderr: text } : {}) };
  } catch (err) {
    if (err instanceof ConfigRefused) return { served: false, reason: err.message };
    throw err;
  } finally {
    redirectStderr(null);
    restore(home);
  }
}

function restore(home: Home): void {
  replaceEnv(home.env);
  process.chdir(home.cwd);
  process.umask(home.umask);
}

/** Children started meanwhile inherit it. */
function replaceEnv(env: Readonly<Record<string, string | undefined>>): void {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
}
