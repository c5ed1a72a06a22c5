import type { Stamp } from "./stamps.ts";

/** A program a check's key stamped: the word its command starts with, where it ran, the file found. */
export interface ProgramRead {
  readonly word: string;
  /** Absolute. */
  readonly cwd: string;
  /** The file's stamp (see stamps.ts); "" when none was found. */
  readonly found: string;
}

/**
 * What the result cache's keys read from outside git while a whole check is being recorded:
 * the files by root-relative path with the content id read, the folders listed with the
 * names kept, the programs stamped. Only these can change a key while git's answers stay the same.
 */
export interface OutsideReads {
  readonly files: Map<string, string>;
  readonly folders: Map<string, readonly string[]>;
  readonly programs: Map<string, ProgramRead>;
  /** The folders judged for markers, each stamped as it was judged (see marker-memory.ts). */
  readonly stamped: Map<string, Stamp>;
}

let current: OutsideReads | null = null;

/** Start noting what the keys read; a second start begins afresh. */
export function noteOutsideReads(): OutsideReads {
  current = { files: new Map(), folders: new Map(), programs: new Map(), stamped: new Map() };
  return current;
}

export function stopNotingOutsideReads(): void {
  current = null;
}

export function noteFileRead(path: string, id: string): void {
  current?.files.set(path, id);
}

export function noteFolderListed(folder: string, names: readonly string[]): void {
  current?.folders.set(folder, names);
}

export function noteProgram(read: ProgramRead): void {
  current?.programs.set(`${read.word}\0${read.cwd}`, read);
}

export function noteFolderStamped(folder: string, stamp: Stamp): void {
  current?.stamped.set(folder, stamp);
}
