import { join } from "node:path";
import ignore, { type Ignore } from "ignore";
import { gitignoreRules } from "../match/gitignore-file.ts";
import { MAX_GITIGNORE_BYTES } from "../match/walk.ts";
import { readRegularFile } from "../util/read-regular.ts";
import { STATE_DIR } from "../util/state-layout.ts";

/**
 * Ignores paths the way git would (every .gitignore from the root down, an ignored folder
 * hides all below it), plus `.git` and the root's `.cpilot/`. `invalidate()` after a
 * .gitignore changes.
 */
export class IgnoreFilter {
  readonly #root: string;
  /** Folder ("" = root) → its own .gitignore's rules, relative to the root. */
  readonly #rules = new Map<string, string[]>();
  /** Folder → the rules of it and all its ancestors. */
  readonly #chains = new Map<string, Ignore>();

  constructor(root: string) {
    this.#root = root;
  }

  invalidate(): void {
    this.#rules.clear();
    this.#chains.clear();
  }

  /** `rel` is posix, relative to the root. */
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
