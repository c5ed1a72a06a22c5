import { NPM_SHIM } from "./self-command.ts";

/**
 * One sh word naming cpilot's npm shim in the nearest folder up from the hook's working folder,
 * for agents whose hooks have no project-folder variable. Not `npx`: that would run whatever
 * `cpilot` bin the project's package.json or `.npmrc` names, which the agent can edit; these
 * folders hold only cpilot's own program, which the gate protects. None found: a missing path.
 */
export const NEAREST_NPM_SHIM = `"$(d=$(pwd -P); while [ ! -x "$d/${NPM_SHIM}" ] && [ -n "$d" ]; do d=\${d%/*}; done; printf %s "$d")"/${NPM_SHIM}`;
