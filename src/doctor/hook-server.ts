// The doctor's look at the opt-in hook server: wanted here, listening, and whether this
// project's config is one it may answer for.
import type * as NodeNet from "node:net";
import { ConfigRefused, readConfigValue } from "../config/load.ts";
import { hookServerWanted, socketPath } from "../hook-server/address.ts";
import { assertServable } from "../hook-server/servable.ts";
import { nodeBuiltin } from "../platform/builtin.ts";
import { runtimeDir } from "../platform/runtime-dir.ts";
import { isCompiledBinary } from "../platform/self-command.ts";
import type { HookServerCheck } from "./types.ts";

export async function checkHookServer(
  configPath: string | null,
  env: NodeJS.ProcessEnv,
): Promise<HookServerCheck> {
  const wanted = hookServerWanted(env, isCompiledBinary());
  const dir = wanted ? runtimeDir(env) : null;
  const socket = dir === null ? null : socketPath(dir);
  return {
    wanted,
    socket,
    listening: socket !== null && (await answers(socket)),
    inProcess: configPath === null ? null : await whyInProcess(configPath),
  };
}

/** Why a server hands this config's calls back, or null when it answers them itself. */
async function whyInProcess(configPath: string): Promise<string | null> {
  try {
    assertServable(configPath, await readConfigValue(configPath));
    return null;
  } catch (err) {
    if (err instanceof ConfigRefused) return err.message;
    return null; // a broken config is the config check's to report
  }
}

/** Does something accept connections on `socket` (within half a second)? */
function answers(socket: string): Promise<boolean> {
  const { connect } = nodeBuiltin<typeof NodeNet>("node:net");
  return new Promise((resolve) => {
    const conn = connect(socket);
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      conn.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 500);
    conn.once("connect", () => done(true));
    conn.once("error", () => done(false));
  });
}
