import { mkdirSync } from "node:fs";
import { writeFileAtomic } from "../../util/atomic-write.ts";
import { isOwnStateDir } from "../../util/state-dir.ts";
import { readStateFile } from "../../util/state-file.ts";
import { STATE, statePath, stateRelative } from "../../util/state-layout.ts";
import { noteStateTrouble } from "../../util/state-trouble.ts";

/** A diagnostic as a baseline remembers it: enough to recognize it after lines moved. */
export interface BaselineEntry {
  /** tool, severity, code and message: what must be equal. */
  readonly key: string;
  readonly line: number;
  /** lineHash of the source line it was on; "" when unknown. */
  readonly text: string;
  /** True when an agent's edit brought it (it stays the agent's to fix). */
  readonly introduced: boolean;
}

/** Per file (root-relative), the diagnostics of the last run that saw it. */
export type Baseline = Record<string, readonly BaselineEntry[]>;

/** Files plus entries kept per callback: past this, the files seen longest ago are dropped. */
const MAX_ENTRIES = 20_000;

function baselinePath(root: string, callback: string): string {
  return statePath(root, STATE.baseline, `${callback}.json`);
}

/** The callback's baseline, empty when there is none or it cannot be read. */
export function readBaseline(root: string, callback: string): Baseline {
  const text = readStateFile(baselinePath(root, callback), 8 * 1024 * 1024);
  if (text === null) return {};
  try {
    const value = JSON.parse(text) as { version?: number; files?: Baseline };
    return value.version === 1 && value.files && typeof value.files === "object" ? value.files : {};
  } catch {
    return {};
  }
}

/**
 * Save a callback's baseline. Best effort: a folder that is not cpilot's own, a full disk
 * or a read-only tree leaves the old one, and is told once beside the reply (see
 * state-trouble.ts); the reply itself never waits on this.
 */
export function writeBaseline(root: string, callback: string, files: Baseline): boolean {
  try {
    if (!isOwnStateDir(root, STATE.baseline)) {
      noteStateTrouble(
        root,
        new Error(`${stateRelative(STATE.baseline)} is not a folder of cpilot's own`),
      );
      return false;
    }
    mkdirSync(statePath(root, STATE.baseline), { recursive: true });
    writeFileAtomic(
      baselinePath(root, callback),
      JSON.stringify({ version: 1, files: bounded(files) }),
      {
        durable: false,
      },
    );
    return true;
  } catch (err) {
    noteStateTrouble(root, err);
    return false;
  }
}

/** The newest files (last inserted) whose entries fit MAX_ENTRIES, in their order. */
function bounded(files: Baseline): Baseline {
  const names = Object.keys(files);
  let total = 0;
  let first = names.length;
  while (first > 0) {
    // A clean file costs one: a tree of files known clean stays bounded too.
    const size = 1 + (files[names[first - 1] as string]?.length ?? 0);
    if (total + size > MAX_ENTRIES) break;
    total += size;
    first--;
  }
  const kept: Baseline = {};
  for (const name of names.slice(first)) kept[name] = files[name] ?? [];
  return kept;
}
