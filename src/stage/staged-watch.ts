import * as fs from "node:fs";
import { runGit } from "../match/git.ts";
import { fsPath, hasEscapedBytes } from "../util/path-bytes.ts";
import { chmodSync, dirname, join, mkdirSync, writeFileSync } from "./byte-name-fs.ts";
import { type FileBlob, readBlob } from "./file-blob.ts";

/**
 * What became of a staged file while the callbacks ran. A fix is told from an edit made
 * meanwhile by when the content changed: only while a fixer given the file runs may it change.
 */
export type WatchVerdict =
  | { readonly kind: "same" }
  | { readonly kind: "fixed"; readonly blob: FileBlob }
  /** Changed after every run ended: what is there now is an edit no check saw. */
  | { readonly kind: "late"; readonly fix: FileBlob | null }
  /** Changed while no fixer ran: what the runs read is not known. `editAt`: a copy of the edit a fixer then ran over. */
  | {
      readonly kind: "doubt";
      readonly editAt: string | null;
      readonly overEdit: boolean;
      readonly during: string | null;
    };

interface Watched {
  readonly original: string;
  seen: string;
  fixers: number;
  doubt: boolean;
  fix: FileBlob | null;
  edit: { readonly at: string; readonly key: string } | null;
  during: string | null;
}

/** The kernel's write stamps tick every few milliseconds, or every second or two on FAT. */
const FINE_CLOCK_MS = 50;
const COARSE_CLOCK_MS = 2000;

function untouchedSince(ctimeMs: number, at: number): boolean {
  return ctimeMs < at - (ctimeMs % 1000 === 0 ? COARSE_CLOCK_MS : FINE_CLOCK_MS);
}

function statSig(path: string): { sig: string; ctimeMs: number } | null {
  try {
    const s = fs.lstatSync(fsPath(path), { throwIfNoEntry: false });
    if (s === undefined) return null;
    return {
      sig: `${s.dev}:${s.ino}:${s.size}:${s.mode}:${s.mtimeMs}:${s.ctimeMs}`,
      ctimeMs: s.ctimeMs,
    };
  } catch {
    return null;
  }
}

/** Reads the staged files at every start and end of a run; copies of edits a fixer would run over go to `keptDir`. */
export class StagedWatch {
  private readonly files = new Map<string, Watched>();

  constructor(
    private readonly top: string,
    private readonly long: boolean,
    private readonly keptDir: string,
  ) {}

  private readonly last = new Map<
    string,
    { sig: string; key: string; at: number; index: boolean }
  >();

  private full(path: string): string {
    return hasEscapedBytes(path) || hasEscapedBytes(this.top)
      ? join(this.top, path)
      : `${this.top}/${path}`;
  }

  /**
   * The file's key now. Not read again when its stat is unchanged and its ctime well before the
   * last reading: any write would have set its ctime, which no program can set back.
   */
  private read(path: string, bytes = false): FileBlob {
    const full = this.full(path);
    const sig = statSig(full);
    const last = this.last.get(path);
    if (!bytes && sig !== null && last?.sig === sig.sig && untouchedSince(sig.ctimeMs, last.at)) {
      return { key: last.key, mode: null, bytes: null };
    }
    const at = Date.now();
    let blob = readBlob(full, this.long);
    let index = false;
    // the same bytes through a filter (end of lines) are the staged content still
    if (last?.index && blob.key !== last.key && blob.mode !== null) {
      const args = ["hash-object", `--path=${path}`, "--", path];
      const r = hasEscapedBytes(path) ? null : runGit(this.top, args);
      const [mode] = last.key.split(" ");
      if (r?.ok && blob.mode === mode && `${mode} ${r.stdout.trim()}` === last.key) {
        blob = { ...blob, key: last.key };
        index = true;
      }
    }
    if (sig === null) this.last.delete(path);
    else this.last.set(path, { sig: sig.sig, key: blob.key, at, index });
    return blob;
  }

  /**
   * Start watching `paths`, which must hold the staged content. Returns those whose content is
   * not the index's blob by id; a file git's survey found equal and untouched since is not read.
   */
  watch(
    paths: Iterable<string>,
    indexed: ReadonlyMap<string, string>,
    vouched: { readonly at: number; readonly except: ReadonlySet<string> },
  ): string[] {
    const differ: string[] = [];
    for (const path of paths) {
      const key = indexed.get(path);
      const sig = vouched.except.has(path) ? null : statSig(this.full(path));
      let seen: string;
      if (key !== undefined && sig !== null && untouchedSince(sig.ctimeMs, vouched.at)) {
        seen = key;
        this.last.set(path, { sig: sig.sig, key, at: vouched.at, index: true });
      } else {
        seen = this.read(path).key;
        if (key !== seen) differ.push(path);
      }
      this.files.set(path, {
        original: seen,
        seen,
        fixers: 0,
        doubt: false,
        fix: null,
        edit: null,
        during: null,
      });
    }
    return differ;
  }

  doubt(paths: readonly string[]): void {
    for (const path of paths) {
      const w = this.files.get(path);
      if (w !== undefined) w.doubt = true;
    }
  }

  runStarted(paths: readonly string[], fixer: boolean): void {
    for (const path of paths) {
      const w = this.files.get(path);
      if (w === undefined) continue;
      if (w.fixers === 0) {
        let now = this.read(path);
        if (now.key !== w.seen) {
          w.doubt = true;
          if (fixer && now.bytes === null) now = this.read(path, true);
          // the fixer would write over that edit: a copy of it first
          if (fixer && w.edit === null && now.mode !== null && now.mode !== "120000") {
            w.edit = { at: this.keep(path, now), key: now.key };
          }
          w.seen = now.key;
        }
      }
      if (fixer) w.fixers++;
    }
  }

  runEnded(paths: readonly string[], fixer: boolean, callback: string): void {
    for (const path of paths) {
      const w = this.files.get(path);
      if (w === undefined) continue;
      if (fixer) w.fixers = Math.max(0, w.fixers - 1);
      if (w.fixers > 0) continue;
      let now = this.read(path);
      if (now.key === w.seen) continue;
      if (fixer) {
        now = this.read(path, true); // its bytes: what the fixer made, to stage
        w.fix = now.key === w.original ? null : now;
        w.seen = now.key;
      } else {
        w.doubt = true;
        w.during ??= callback;
        w.seen = now.key;
      }
    }
  }

  verdicts(): Map<string, WatchVerdict> {
    const out = new Map<string, WatchVerdict>();
    for (const [path, w] of this.files) {
      const now = this.read(path);
      if (w.doubt) {
        const edit = w.edit;
        // what is there is what a fixer made of that edit: the edit goes back, that aside
        const overEdit = edit !== null && now.key === w.seen && now.key !== edit.key;
        out.set(path, { kind: "doubt", editAt: edit?.at ?? null, overEdit, during: w.during });
      } else if (now.key === w.seen && w.fix === null) out.set(path, { kind: "same" });
      else if (now.key === w.seen) {
        // changed since the key was taken: it is late
        const blob = this.read(path, true);
        out.set(path, blob.key === w.seen ? { kind: "fixed", blob } : { kind: "late", fix: w.fix });
      } else out.set(path, { kind: "late", fix: w.fix });
    }
    return out;
  }

  private keep(path: string, blob: FileBlob): string {
    const at = join(this.keptDir, path);
    mkdirSync(dirname(at), { recursive: true });
    writeFileSync(at, blob.bytes as Uint8Array);
    chmodSync(at, blob.mode === "100755" ? 0o755 : 0o644);
    return at;
  }
}
