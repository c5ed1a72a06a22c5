/**
 * The text the model reads from cpilot's hooks, in one place; each agent wraps it in its
 * own protocol. The gate's and the MCP tools' refusals are worded where they are decided.
 */

/** A plugin's `modify`. */
export function gateModified(tool: string, summary: string | undefined): string {
  return `cpilot's write gate changed this ${tool} before it ran; the file now holds the changed version, not exactly what you sent:\n${summary ?? "(no summary)"}`;
}

export function gateFailed(message: string): string {
  return `cpilot's write gate could not decide on this write (an internal error: ${message}), so it is not allowed. Try again; if it persists, the user can check \`cpilot doctor\`.`;
}

/** No verdict came in time (the hook was stopped, the config's child ended). */
export function gateUndecided(why: string): string {
  return `cpilot's write gate could not decide on this write (${why}), so it is not allowed. Tell the user if it keeps happening.`;
}

export function unreadableInput(problem: string): string {
  return `cpilot's write gate could not read this hook call's input (${problem}), so it cannot tell what would be written and the write is not allowed. Try again; if it keeps happening, tell the user.`;
}

export function configBroken(message: string): string {
  return `cpilot: the project's checks are NOT running: its config is broken.\n${message}\nFix the config file if that is part of your task; otherwise tell the user.`;
}

export function unloadedConfig(why: string): string {
  return `\n(The project's cpilot config did not load, so only cpilot's built-in protections decided: ${why})`;
}

/** The config's rules and plugins may deny it and cannot be asked: fail closed. */
export function unloadedConfigRefusal(path: string, why: string): string {
  return `Cannot write ${JSON.stringify(path)}: the project's cpilot config did not load, so the write gate cannot consult its rules and plugins and no write is allowed (${why})\nhint: tell the user; the config must finish loading on its own (\`cpilot check\` shows the error)`;
}

export const CHECKS_FAILED_AFTER_EDIT = "cpilot: checks failed after your edit; fix these:";

/** Claude Code's PostToolBatch. */
export const CHECKS_FAILED_AFTER_EDITS = "cpilot: checks failed after your last edits; fix these:";

/** `reminder` of at most `max`. */
export function stopReminder(problems: number, reminder: number, max: number): string {
  return `cpilot: do not stop yet: ${problems === 1 ? "this needs" : "these need"} fixing first (reminder ${reminder} of at most ${max}):`;
}

/** A patch the agent itself would refuse: what it writes is unknown. */
export function patchUnreadable(agent: string, problem: string): string {
  return `${agent} cannot apply this patch, and cpilot cannot check it: ${problem}. Send a patch that starts with "*** Begin Patch", ends with "*** End Patch", and has one "*** Add File: ", "*** Update File: " or "*** Delete File: " header (one space after the colon) per file.`;
}

/** A shell command that may apply a patch in a spelling cpilot cannot read as Codex does. */
export const SHELL_PATCH_UNREADABLE =
  "This shell command holds a patch (*** Begin Patch … *** End Patch), or names apply_patch beside a heredoc, in a form cpilot cannot read the way Codex does, so the write gate cannot check which files it writes. Send the patch with the apply_patch tool instead (or, in the shell, as `apply_patch <<'EOF'` … `EOF` alone, optionally after `cd <dir> &&`).";

export const PATCH_NOT_REWRITABLE =
  "A write-gate plugin wants a file of this patch written differently, and cpilot cannot rewrite this patch to say so. Write that file whole with *** Add File in the apply_patch tool.";
