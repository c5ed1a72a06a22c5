import type { FixReport } from "../stage/fixes.ts";
import type { Journal } from "../stage/journal.ts";
import type { PutBack } from "../stage/restore.ts";
import { paint, say } from "./style.ts";

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
const list = (paths: readonly string[]): string =>
  paths.length <= 5
    ? paths.join(", ")
    : `${paths.slice(0, 5).join(", ")} and ${paths.length - 5} more`;

export const stagedMessages = {
  manyUntracked(count: number): void {
    say(
      paint(
        `cpilot: setting ${plural(count, "untracked file")} aside while the staged content is checked (they are not in the commit)`,
        "yellow",
      ),
    );
    say(
      "hint: ignore them in .gitignore, or set hideUntracked: false in the config to leave untracked files in place",
    );
  },

  /** `checked` false: the check failed before any run, after it had set work aside. */
  putBack(journal: Journal, back: PutBack, options: { checked: boolean }): void {
    const parts = [
      journal.tracked.length > 0 ? plural(journal.tracked.length, "unstaged change") : "",
      journal.untracked.length > 0 ? plural(journal.untracked.length, "untracked file") : "",
    ].filter(Boolean);
    say(
      paint(
        options.checked
          ? `cpilot: checked the staged content; ${parts.join(" and ")} set aside meanwhile, now back`
          : `cpilot: ${parts.join(" and ")} set aside for the check, now back`,
        "gray",
      ),
    );
    if (back.kept.length > 0) {
      say(
        paint(
          `cpilot: callbacks wrote over ${list(back.kept)} where set-aside work went back: their version is kept in ${back.keptDir}`,
          "yellow",
        ),
      );
    }
    for (const { path, keptAt } of back.later) {
      say(paint(`cpilot: kept your later edit of ${path} as ${keptAt}`, "yellow"));
      say("hint: it was written while set-aside work went back there; copy back what you need");
    }
  },

  leftInPlace(paths: readonly string[]): void {
    if (paths.length === 0) return;
    say(
      paint(
        `cpilot: the staged version of ${list(paths)} is not what callbacks see: a folder (or a file where one of its folders was) is in its place, left as it is`,
        "yellow",
      ),
    );
    say("hint: move it away and commit again to have the staged version checked");
  },

  putBackFailed(dir: string, err: unknown): void {
    say(
      paint(
        `cpilot: Cannot put back the work set aside in "${dir}": ${(err as Error).message}`,
        "red",
      ),
    );
    say("hint: it is all still there; `cpilot check --restore` (or any cpilot call) tries again");
  },

  stagedMeanwhile(paths: readonly string[]): void {
    if (paths.length === 0) return;
    say(
      paint(
        `cpilot: Cannot pass the commit: ${list(paths)} ${paths.length === 1 ? "was" : "were"} staged while the check ran, and no check saw what the index holds now`,
        "red",
      ),
    );
    say("hint: nothing was changed of it; commit again to check what is staged now");
  },

  emptied(paths: readonly string[]): void {
    say(
      paint(
        "cpilot: Cannot commit: the callbacks' fixes undid every staged change (nothing would be recorded)",
        "red",
      ),
    );
    say(
      `hint: ${list(paths)} as fixed is what HEAD holds; stage a change that outlives the formatter, or \`git commit --no-verify\` to record the commit as it is (an --amend of the message alone)`,
    );
  },

  fixes(report: FixReport, options: { stageFixed: boolean; keptIn: string }): void {
    if (report.staged.length > 0) {
      say(paint(`cpilot: staged what callbacks fixed: ${list(report.staged)}`, "yellow"));
    }
    if (report.ownIndexLags.length > 0) {
      say(
        paint(
          `cpilot: the commit has the fix, but git's own index could not take it: run \`git add ${report.ownIndexLags.map((p) => JSON.stringify(p)).join(" ")}\` after the commit, or \`git status\` shows the fix as not staged`,
          "yellow",
        ),
      );
    }
    for (const path of report.merged) {
      say(paint(`cpilot: ${path}: your unstaged changes are back on top of the fix`, "gray"));
    }
    if (report.unstaged.length > 0) {
      say(
        paint(
          options.stageFixed
            ? `cpilot: callbacks rewrote ${list(report.unstaged)}, not staged: the change is left in the working tree`
            : `cpilot: callbacks rewrote ${list(report.unstaged)}; stageFixed is off, so the fix is in the working tree, not staged`,
          "yellow",
        ),
      );
    }
    if (report.late.length > 0) {
      say(
        paint(
          `cpilot: ${list(report.late)} changed while the check ran, after the callbacks had read it: the commit records the version they checked; the change stays in the working tree, not staged`,
          "yellow",
        ),
      );
    }
    for (const d of report.doubtful) {
      say(
        paint(
          d.during === null
            ? `cpilot: Cannot tell what the callbacks checked of "${d.path}": it changed while the check ran, and no fixer given it was running (an edit made meanwhile, or a fixer that rewrites files it is not given)`
            : `cpilot: Cannot tell what the callbacks checked of "${d.path}": it changed during the run of '${d.during}', which does not say \`fixes: true\` (an edit made meanwhile, or that callback rewrote it)`,
          "red",
        ),
      );
      const edit =
        d.fixerOutputAt !== null
          ? ` Your edit is back in the working tree; what a fixer made of it is kept in ${d.fixerOutputAt}.`
          : d.editAt !== null
            ? ` A copy of your edit, before a fixer ran over it, is in ${d.editAt}.`
            : "";
      say(
        `hint: nothing of it is staged: the index holds the version you staged, the working tree what was written last.${edit} Stage what you mean to commit and commit again${d.during === null ? "" : `; if '${d.during}' rewrites files, give it \`fixes: true\``}`,
      );
    }
    for (const { path, keptAt } of report.conflicts) {
      say(
        paint(
          `cpilot: Cannot put your unstaged changes to "${path}" back on top of the fix: they touch the same lines (or the file is not text)`,
          "red",
        ),
      );
      say(
        `hint: nothing is lost. ${options.stageFixed ? "The index holds the fixed staged version, " : "The index holds your staged version, "}the working tree your unstaged version as it was, and the fixed file is kept in ${keptAt}. ` +
          `Bring the fix into your working copy (\`git diff --no-index "${path}" "${keptAt}"\` shows it), stage what you mean to commit, and commit again`,
      );
    }
  },
};
