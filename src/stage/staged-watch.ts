import { type FileBlob, readBlob } from "./file-blob.ts";
import { chmodSync, dirname, join, mkdirSync, writeFileSync } from "./kept-fs.ts";

/**
 * What became of a staged file while the callbacks ran, as far as the file system can tell.
 * A callback's fix is told from an edit made meanwhile (an agent, an editor) by when the
 * content changed: only while a fixer (`fixes: true`) given the file runs may it change.
 */
export type WatchVerdict =
  /** What is there is the staged content. */
  | { readonly kind: "same" }
  /** Its fixers changed it, every later run read that, and it is still there. */
  | { readonly kind: "fixed"; readonly blob: FileBlob }
  /**
   * Changed after every run over it ended: the runs read the staged content (`fix` null) or
   * the fixers' result (`fix`); what is there now is an edit no check saw.
   */
  | { readonly kind: "late"; readonly fix: FileBlob | null }
  /**
   * Changed while no fixer of it ran (between runs, or while a callback that does not fix
   * it ran): what the runs read is not known. `editAt`: a copy of the edit a fixer then ran
   * over, taken before it started; `overEdit`: what is there is that fixer's output.
   */
  | {
      readonly kind: "doubt";
      readonly editAt: string | null;
      readonly overEdit: boolean;
      /** The callback, not a fixer, during whose run it changed; null: between runs. */
      readonly during: string | null;
    };

interface Watched {
  /** The staged content as checked out. */
  readonly original: string;
  /** What the next run must find: the original, or what its last fixers left. */
  seen: FileBlob;
  /** Fixers over it running now. */
  fixers: number;
  doubt: boolean;
  /** Its fixers' result, when they changed it (`seen` is that then). */
  fix: FileBlob | null;
  /** A person's edit a fixer was about to run over: its copy, and its key. */
  edit: { readonly at: string; readonly key: string } | null;
  during: string | null;
}

/**
 * Reads the staged files at every start and end of a run over them (from the top, `/`):
 * see {@link WatchVerdict}. Copies of people's edits a fixer is about to run over go to
 * `keptDir`, so nothing they wrote is lost.
 */
export class StagedWatch {
  private readonly files = new Map<string, Watched>();

  constructor(
    private readonly top: string,
    private readonly long: boolean,
    private readonly keptDir: string,
  ) {}

  private read(path: string): FileBlob {
    return readBlob(join(this.top, path), this.long);
  }

  /**
   * Start watching `paths`, whose content now must be the staged one. Returns the paths
   * whose content is not the index's blob by id (`indexed`: "<mode> <id>"): a filter (end
   * of lines, LFS) or an edit made since git listed them; the caller asks git which.
   */
  watch(paths: Iterable<string>, indexed: ReadonlyMap<string, string>): string[] {
    const differ: string[] = [];
    for (const path of paths) {
      const seen = this.read(path);
      this.files.set(path, {
        original: seen.key,
        seen,
        fixers: 0,
        doubt: false,
        fix: null,
        edit: null,
        during: null,
      });
      if (indexed.get(path) !== seen.key) differ.push(path);
    }
    return differ;
  }

  /** `paths` did not hold the staged content when the runs began. */
  doubt(paths: readonly string[]): void {
    for (const path of paths) {
      const w = this.files.get(path);
      if (w !== undefined) w.doubt = true;
    }
  }

  /** A run over `paths` starts (`fixer`: its callback says `fixes: true`). */
  runStarted(paths: readonly string[], fixer: boolean): void {
    for (const path of paths) {
      const w = this.files.get(path);
      if (w === undefined) continue;
      if (w.fixers === 0) {
        const now = this.read(path);
        if (now.key !== w.seen.key) {
          w.doubt = true;
          // the fixer would write over that edit: a copy of it first
          if (fixer && w.edit === null && now.mode !== null && now.mode !== "120000") {
            w.edit = { at: this.keep(path, now), key: now.key };
          }
          w.seen = now;
        }
      }
      if (fixer) w.fixers++;
    }
  }

  /** A run of `callback` over `paths` ended. */
  runEnded(paths: readonly string[], fixer: boolean, callback: string): void {
    for (const path of paths) {
      const w = this.files.get(path);
      if (w === undefined) continue;
      if (fixer) w.fixers = Math.max(0, w.fixers - 1);
      if (w.fixers > 0) continue;
      const now = this.read(path);
      if (now.key === w.seen.key) continue;
      if (fixer) {
        w.fix = now.key === w.original ? null : now;
        w.seen = now;
      } else {
        w.doubt = true;
        w.during ??= callback;
        w.seen = now;
      }
    }
  }

  /** Each watched file's verdict, read now (the runs have ended). */
  verdicts(): Map<string, WatchVerdict> {
    const out = new Map<string, WatchVerdict>();
    for (const [path, w] of this.files) {
      const now = this.read(path);
      if (w.doubt) {
        const edit = w.edit;
        // what is there is what a fixer made of that edit: the edit goes back, that aside
        const overEdit = edit !== null && now.key === w.seen.key && now.key !== edit.key;
        out.set(path, { kind: "doubt", editAt: edit?.at ?? null, overEdit, during: w.during });
      } else if (now.key === w.seen.key) {
        out.set(path, w.fix === null ? { kind: "same" } : { kind: "fixed", blob: now });
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
