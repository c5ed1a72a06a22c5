import { readdirSync } from "node:fs";
import { join } from "node:path";
import { markedOnDisk } from "../project/not-own.ts";
import { fileContentId } from "./content.ts";
import { findProgram } from "./find-program.ts";
import type { OutsideReads } from "./outside-reads.ts";
import { racy, type Stamp, stampOf } from "./stamps.ts";
import { TOOL_CONFIG_NAMES } from "./tool-configs.ts";
import {
  type FileEntry,
  type FolderEntry,
  isStrings,
  type ProgramEntry,
  type WholeRecord,
} from "./whole-record.ts";

/** The folders holding `paths` and every folder above them, the root left out. */
export function foldersHolding(paths: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const path of paths) {
    let slash = path.lastIndexOf("/");
    while (slash > 0) {
      const folder = path.slice(0, slash);
      if (folders.has(folder)) break; // its parents are in already
      folders.add(folder);
      slash = folder.lastIndexOf("/");
    }
  }
  return folders;
}

/**
 * The entries of a record from what the keys read and the folders stamped as they were judged;
 * null when something changed while the check ran (a stamp moved, a content id differs).
 */
export function wholeEntries(
  root: string,
  reads: OutsideReads,
  folders: ReadonlyMap<string, Stamp>,
): Pick<WholeRecord, "files" | "folders" | "programs"> | null {
  const files: FileEntry[] = [];
  for (const [path, id] of reads.files) {
    const before = stampOf(join(root, path));
    const now = fileContentId(root, path);
    const after = stampOf(join(root, path));
    if (before?.text !== after?.text || now !== id) return null;
    files.push([path, before?.text ?? "", id, before?.newest ?? 0]);
  }
  const folderEntries: FolderEntry[] = [];
  // stamped as they were judged, before the keys looked: a change since shows as another
  // stamp, or is looked at again when too recent to vouch (see outsideUnchanged)
  for (const [folder, stamp] of folders) {
    const listed = reads.folders.get(folder) ?? null;
    folderEntries.push([folder, stamp.text, stamp.newest, listed]);
  }
  for (const [folder, names] of reads.folders) {
    if (folders.has(folder)) continue;
    const before = stampOf(join(root, folder));
    const now = listedNow(root, folder);
    const after = stampOf(join(root, folder));
    if (before?.text !== after?.text || !sameNames(now, names)) return null;
    folderEntries.push([folder, before?.text ?? "", before?.newest ?? 0, names]);
  }
  const programs: ProgramEntry[] = [];
  for (const read of reads.programs.values()) {
    if (foundNow(read.word, read.cwd) !== read.found) return null;
    programs.push([read.word, read.cwd, read.found]);
  }
  return { files, folders: folderEntries, programs };
}

/**
 * Is every file, folder and program the record's keys read outside git as it was? A stamp
 * that moved says no; one too close to its change to vouch has its content looked at.
 */
export function outsideUnchanged(root: string, record: WholeRecord): boolean {
  try {
    return (
      filesUnchanged(root, record) && foldersUnchanged(root, record) && programsUnchanged(record)
    );
  } catch {
    return false; // an entry of another shape: a record this cpilot did not write
  }
}

function filesUnchanged(root: string, record: WholeRecord): boolean {
  const at = record.checkedAt;
  for (const [path, stamp, id, newest] of record.files) {
    if (typeof path !== "string" || typeof id !== "string" || typeof newest !== "number")
      return false;
    if ((stampOf(join(root, path))?.text ?? "") !== stamp) return false;
    if (stamp !== "" && racy(newest, at) && fileContentId(root, path) !== id) return false;
  }
  return true;
}

function foldersUnchanged(root: string, record: WholeRecord): boolean {
  const at = record.checkedAt;
  for (const [folder, stamp, newest, names] of record.folders) {
    if (typeof folder !== "string" || typeof newest !== "number") return false;
    if ((stampOf(join(root, folder))?.text ?? "") !== stamp) return false;
    if (stamp === "" || !racy(newest, at)) continue;
    if (markedOnDisk(root, folder)) return false;
    if (names !== null && !(isStrings(names) && sameNames(listedNow(root, folder), names)))
      return false;
  }
  return true;
}

function programsUnchanged(record: WholeRecord): boolean {
  for (const [word, cwd, found] of record.programs) {
    if (typeof word !== "string" || typeof cwd !== "string") return false;
    if (foundNow(word, cwd) !== found) return false;
  }
  return true;
}

/** Whether some stamp of the record could not vouch alone when it was checked, and could now. */
export function settlesBy(record: WholeRecord, now: number): boolean {
  const at = record.checkedAt;
  const settled = (newest: number) => racy(newest, at) && !racy(newest, now);
  return (
    record.files.some(([, stamp, , newest]) => stamp !== "" && settled(newest)) ||
    record.folders.some(([, stamp, newest]) => stamp !== "" && settled(newest))
  );
}

function foundNow(word: string, cwd: string): string {
  const found = findProgram(word, cwd);
  return found === null ? "" : (stampOf(found.path)?.text ?? "");
}

function listedNow(root: string, folder: string): string[] {
  try {
    return readdirSync(join(root, folder))
      .filter((name) => TOOL_CONFIG_NAMES.has(name))
      .sort();
  } catch {
    return [];
  }
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i]);
}
