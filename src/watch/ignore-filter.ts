import { join } from "node:path";
import ignore, { type Ignore } from "ignore";
import { gitignoreRules } from "../match/gitignore-file.ts";
import { MAX_GITIGNORE_BYTES } from "../match/walk.ts";
import { readRegularFile } from "../util/read-regular.ts";
import { STATE_DIR } from "../util/state-layout.ts";

/**
 * Decides which paths a watcher ignores, the way git would: every .gitignore from the
 * root down to the path's folder (deeper files win), an ignored folder hides everything
 * below it, plus `.git` anywhere and cpilot's own `.cpilot/` at the root. Rules are read
 * lazily per folder and cached; `invalidate()` after a .gitignore changes.
 */
export class IgnoreFilter {
  readonly #root: string;
  /** Folder ("" = root) → the rules of its own .gitignore, relative to the root. */
  readonly #rules = new Map<string, string[]>();
  /** Folder → an Ignore holding the rules of the folder and all its ancestors. */
  readonly #chains = new Map<string, Ignore>();

  constructor(root: string) {
    this.#root = root;
  }

  /** Forget every cached rule (a .gitignore was written or removed). */
  invalidate(): void {
    this.#rules.clear();
    this.#chains.clear();
  }

  /** True when `rel` (posix, relative to the root) is ignored; `isDir` for folders. */
  ignores(rel: string, isDir = false): boolean {
    if (rel === "" || rel.startsWith("../")) return rel !== "";
    const parts = rel.split("/");
    if (parts.includes(".git") || parts[0] === STATE_DIR) return true;
    let parent = "";
    for (let i = 0; i < parts.length - 1; i++) {
      const dir = parent === "" ? (parts[i] as string) : `${parent}/${parts[i]}`;
      if (this.#chain(parent).ignores(`${dir}/`)) return true;
      parent = dir;
    }
    return this.#chain(parent).ignores(isDir ? `${rel}/` : rel);
  }

  #chain(dir: string): Ignore {
    const cached = this.#chains.get(dir);
    if (cached !== undefined) return cached;
    const rules = ignore({ ignorecase: false });
    const parts = dir === "" ? [] : dir.split("/");
    let at = "";
    rules.add(this.#own(""));
    for (const part of parts) {
      at = at === "" ? part : `${at}/${part}`;
      rules.add(this.#own(at));
    }
    this.#chains.set(dir, rules);
    return rules;
  }

  #own(dir: string): string[] {
    let rules = this.#rules.get(dir);
    if (rules !== undefined) return rules;
    const text = readRegularFile(join(this.#root, dir, ".gitignore"), MAX_GITIGNORE_BYTES);
    rules = text === null ? [] : gitignoreRules(text.toString("utf8"), dir);
    this.#rules.set(dir, rules);
    return rules;
  }
}
