import { NPM_SHIM } from "./self-command.ts";

/**
 * One sh word that names the npm package's shim in the nearest folder, from the hook's
 * working folder up, that holds one: how the shared hook commands of agents with no
 * project-folder variable (Codex, Cursor, Qwen Code, Copilot CLI) start the project's own
 * cpilot from the project or any subfolder. It asks nothing that files an agent may edit
 * decide: `npx` would run a `cpilot` bin the project's package.json names (or a workspace's,
 * or one an `.npmrc` points to) in cpilot's place; the folders it looks in here can only
 * hold cpilot's own program, which the gate protects at any depth. Where no folder has it,
 * the word names `/node_modules/…`, which is missing, so the command fails.
 */
export const NEAREST_NPM_SHIM = `"$(d=$(pwd -P); while [ ! -x "$d/${NPM_SHIM}" ] && [ -n "$d" ]; do d=\${d%/*}; done; printf %s "$d")"/${NPM_SHIM}`;
