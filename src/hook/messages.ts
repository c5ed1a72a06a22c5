/**
 * The text the model reads from cpilot's hooks, in one place (as lint-staged keeps its
 * messages.js): what it is told when the gate refuses or changes a write, when a hook's
 * input cannot be read, when the project's config is broken, when checks fail. Each agent
 * wraps these in its own protocol; none words them itself. The gate's own refusals
 * (src/gate/) and the MCP tools' answers (src/mcp/) are worded where they are decided.
 */

/** The gate changed a write before it ran (a plugin's `modify`). */
export function gateModified(tool: string, summary: string | undefined): string {
  return `cpilot's write gate changed this ${tool} before it ran; the file now holds the changed version, not exactly what you sent:\n${summary ?? "(no summary)"}`;
}

/** The gate itself failed (a bug, not a rule): it fails closed. */
export function gateFailed(message: string): string {
  return `cpilot's write gate could not decide on this write (an internal error: ${message}), so it is not allowed. Try again; if it persists, the user can check \`cpilot doctor\`.`;
}

/** No verdict came in time (the hook was stopped, the config's child ended): the write is refused. */
export function gateUndecided(why: string): string {
  return `cpilot's write gate could not decide on this write (${why}), so it is not allowed. Tell the user if it keeps happening.`;
}

/** The hook's input could not be read: what would be written is unknown, so it is refused. */
export function unreadableInput(problem: string): string {
  return `cpilot's write gate could not read this hook call's input (${problem}), so it cannot tell what would be written and the write is not allowed. Try again; if it keeps happening, tell the user.`;
}

/** The project's config does not load: the checks are off until it is fixed. */
export function configBroken(message: string): string {
  return `cpilot: the project's checks are NOT running: its config is broken.\n${message}\nFix the config file if that is part of your task; otherwise tell the user.`;
}

/** Added to a deny reason when only the built-in protections decided (the config did not load). */
export function unloadedConfig(why: string): string {
  return `\n(The project's cpilot config did not load, so only cpilot's built-in protections decided: ${why})`;
}

/**
 * Why a write the built-in protections allow is refused all the same while the config does
 * not load: its rules and plugins may deny it, and cannot be asked (fail closed).
 */
export function unloadedConfigRefusal(path: string, why: string): string {
  return `Cannot write ${JSON.stringify(path)}: the project's cpilot config did not load, so the write gate cannot consult its rules and plugins and no write is allowed (${why})\nhint: tell the user; the config must finish loading on its own (\`cpilot check\` shows the error)`;
}

/** Heads the failures after one edit. */
export const CHECKS_FAILED_AFTER_EDIT = "cpilot: checks failed after your edit; fix these:";

/** Heads the failures after a batch of edits (Claude Code's PostToolBatch). */
export const CHECKS_FAILED_AFTER_EDITS = "cpilot: checks failed after your last edits; fix these:";

/** Heads the reasons an agent may not stop yet (`reminder` of at most `max`). */
export function stopReminder(problems: number, reminder: number, max: number): string {
  return `cpilot: do not stop yet: ${problems === 1 ? "this needs" : "these need"} fixing first (reminder ${reminder} of at most ${max}):`;
}

/** A patch the agent itself would refuse: what it writes is unknown, so it is refused here too. */
export function patchUnreadable(agent: string, problem: string): string {
  return `${agent} cannot apply this patch, and cpilot cannot check it: ${problem}. Send a patch that starts with "*** Begin Patch", ends with "*** End Patch", and has one "*** Add File: ", "*** Update File: " or "*** Delete File: " header (one space after the colon) per file.`;
}

/** A shell command that may apply a patch in a spelling cpilot cannot read as Codex does. */
export const SHELL_PATCH_UNREADABLE =
  "This shell command holds a patch (*** Begin Patch … *** End Patch), or names apply_patch beside a heredoc, in a form cpilot cannot read the way Codex does, so the write gate cannot check which files it writes. Send the patch with the apply_patch tool instead (or, in the shell, as `apply_patch <<'EOF'` … `EOF` alone, optionally after `cd <dir> &&`).";

/** A gate plugin changed a patched file and the patch cannot be rewritten to carry that. */
export const PATCH_NOT_REWRITABLE =
  "A write-gate plugin wants a file of this patch written differently, and cpilot cannot rewrite this patch to say so. Write that file whole with *** Add File in the apply_patch tool.";
