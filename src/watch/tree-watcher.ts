import { type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import { join, sep } from "node:path";
import type { IgnoreFilter } from "./ignore-filter.ts";

export interface TreeWatcher {
  readonly watchCount: () => number;
  close(): void;
}

export interface WatchTreeOptions {
  /** `per-dir` on Linux: a recursive watch there would put an inotify watch on every folder of node_modules. */
  readonly mode?: "per-dir" | "recursive";
  readonly onError?: (err: Error) => void;
}

/** `onPath` gets a relative posix path per change, possibly several times; new folders are watched too. */
export function watchTree(
  root: string,
  filter: IgnoreFilter,
  onPath: (rel: string) => void,
  options: WatchTreeOptions = {},
): TreeWatcher {
  const mode = options.mode ?? (process.platform === "linux" ? "per-dir" : "recursive");
  const onError = options.onError ?? (() => {});
  const report = (rel: string, isDir = false): void => {
    if (rel.endsWith(".gitignore") && (rel === ".gitignore" || rel.endsWith("/.gitignore")))
      filter.invalidate();
    if (!filter.ignores(rel, isDir)) onPath(rel);
  };
  if (mode === "recursive") {
    const watcher = watch(root, { recursive: true }, (_event, name) => {
      if (name !== null) report(String(name).split(sep).join("/"));
    });
    watcher.on("error", onError);
    return { watchCount: () => 1, close: () => watcher.close() };
  }

  const watchers = new Map<string, FSWatcher>();
  let closed = false;
  const isDir = (rel: string): boolean | null => {
    try {
      return statSync(join(root, rel)).isDirectory();
    } catch {
      return null;
    }
  };
  const closeUnder = (rel: string): void => {
    for (const [dir, w] of watchers) {
      if (dir === rel || dir.startsWith(`${rel}/`)) {
        w.close();
        watchers.delete(dir);
      }
    }
  };
  const addDir = (dir: string, announce: boolean): void => {
    if (closed || watchers.has(dir) || (dir !== "" && filter.ignores(dir, true))) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(join(root, dir), { persistent: true }, (_event, name) => {
        if (name === null) return;
        const rel = dir === "" ? String(name) : `${dir}/${name}`;
        const kind = isDir(rel);
        if (kind === true) {
          if (!watchers.has(rel)) addDir(rel, true);
          return;
        }
        if (kind === null && watchers.has(rel)) {
          closeUnder(rel);
          return;
        }
        report(rel);
      });
    } catch (err) {
      onError(err as Error);
      return;
    }
    watcher.on("error", () => closeUnder(dir));
    watchers.set(dir, watcher);
    let entries: import("node:fs").Dirent[] = [];
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) addDir(rel, announce);
      else if (announce) report(rel);
    }
  };
  addDir("", false);
  return {
    watchCount: () => watchers.size,
    close: () => {
      closed = true;
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
