import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { ProjectSnapshot, statusAhead } from "../cache/content.ts";
import { objectFormat } from "../cache/object-format.ts";
import { wholeSettings, wholeSlot } from "../cache/whole-key.ts";
import {
  DURATION_MARK,
  readWholeRecord,
  type WholeRecord,
  writeWholeRecord,
} from "../cache/whole-record.ts";
import { outsideUnchanged, settlesBy } from "../cache/whole-stamps.ts";
import { findConfig } from "../config/find.ts";
import { writeErr } from "../platform/stdio.ts";
import { readIndexBits } from "../stage/index-bits.ts";
import { colorEnabled, formatDuration, paint } from "../ui/style.ts";
import { findGitDir } from "../util/git-dir.ts";
import { mark } from "../util/trace.ts";
import { type AllStart, allFilesFrom, beginAllFiles } from "./check-files.ts";
import type { WholeStart } from "./check-whole-record.ts";

/** The flags of `cpilot check` that a whole replay looks at. */
export interface AllFlags {
  readonly only?: string[] | undefined;
  readonly skip?: string[] | undefined;
  readonly "dry-run"?: boolean | undefined;
  readonly json?: boolean | undefined;
  readonly format?: string | undefined;
  readonly "fail-on-change"?: boolean | undefined;
  readonly "new-only"?: boolean | undefined;
  readonly shard?: string | undefined;
  readonly durations?: string | undefined;
}

/**
 * `check --all` begun: git's pass over the tree started first, and when the last such check
 * here had every run replayed and passed and nothing it depended on changed since, its text
 * printed again (`code`) with no config loaded, nothing planned, no result looked up.
 */
export async function beginAllCheck(
  args: readonly string[],
  flags: AllFlags,
  cwd: string,
  explicit: string | undefined,
): Promise<{ readonly code: number } | { readonly allStart: AllStart | null }> {
  const started = Date.now();
  if (!replayable(flags)) return { allStart: beginAllFiles(cwd, explicit) };
  const configPath = explicit === undefined ? findConfig(cwd) : resolve(cwd, explicit);
  if (configPath === null || !statSync(configPath, { throwIfNoEntry: false })?.isFile())
    return { allStart: null };
  const root = resolve(configPath, "..");
  const status = statusAhead(root);
  if (status === null) return { allStart: allFilesFrom(root, null) };
  const input = { root, cwd, args, configPath };
  const settings = wholeSettings(input);
  if (settings === null) return { allStart: allFilesFrom(root, status) };
  const whole: WholeStart = { slot: wholeSlot(root, cwd, args), settings, input };
  const full = (): { allStart: AllStart } => ({
    allStart: { ...allFilesFrom(root, status), whole },
  });
  const record = readWholeRecord(root, whole.slot);
  const lookedAt = Date.now();
  if (
    record === null ||
    record.settings !== settings ||
    !indexHoldsNoFlags(root) ||
    !outsideUnchanged(root, record)
  )
    return full();
  const state = await status.state;
  if (state === null || state.unusual) return full();
  if (ProjectSnapshot.fromStatus(root, state).key() !== record.project) return full();
  printReplay(record, Date.now() - started);
  mark("whole check replayed");
  // stamps that now vouch alone spare the next replay a look at their content
  if (settlesBy(record, lookedAt)) writeWholeRecord(root, { ...record, checkedAt: lookedAt });
  return { code: 0 };
}

function replayable(flags: AllFlags): boolean {
  const env = process.env;
  return (
    flags.only === undefined &&
    flags.skip === undefined &&
    flags["dry-run"] !== true &&
    flags.json !== true &&
    (flags.format === undefined || flags.format === "text") &&
    flags["fail-on-change"] !== true &&
    flags["new-only"] !== true &&
    flags.shard === undefined &&
    flags.durations === undefined &&
    // annotations, shared results, no cache: each asks for the full path
    env.GITHUB_ACTIONS === undefined &&
    (env.CPILOT_REMOTE_CACHE_URL ?? "") === "" &&
    env.CPILOT_CACHE !== "0"
  );
}

/**
 * No entry of git's index is skip-worktree or assume-unchanged: `git status` does not compare
 * those with the files. Read from the index file itself: no `git ls-files`.
 */
function indexHoldsNoFlags(root: string): boolean {
  if (process.env.GIT_INDEX_FILE !== undefined) return false;
  const gitDir = findGitDir(root);
  if (gitDir === null) return false;
  const hashBytes = objectFormat(root) === "sha256" ? 32 : 20;
  return readIndexBits(join(gitDir, "index"), hashBytes)?.size === 0;
}

function printReplay(record: WholeRecord, elapsedMs: number): void {
  const color = colorEnabled();
  const summary = record.summary.replace(DURATION_MARK, formatDuration(elapsedMs));
  const why = paint(
    `(whole check replayed: nothing changed since the check ${ago(record.at)})`,
    "gray",
    color,
  );
  writeErr(`${[...record.lines, `${summary} ${why}`].join("\n")}\n`);
}

/** "12 s ago", "3 min ago", "5 h ago", "2 days ago": no clock time, whose time zone costs more to load than a replay. */
function ago(at: number): string {
  const s = Math.max(0, Math.round((Date.now() - at) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} days ago`;
}
