/** The object format read from a repository's config, as git itself reports it. */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { objectFormat } from "../../src/cache/object-format.ts";
import { tempDir } from "../helpers/tmp.ts";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: "pipe" }).trim();

test.each(["sha1", "sha256"])(
  "a %s repository, a folder inside it and a linked worktree read as git says",
  (format) => {
    const root = tempDir(`cpilot-format-${format}-`);
    git(root, "init", "-q", "-b", "main", `--object-format=${format}`);
    git(
      root,
      "-c",
      "user.name=t",
      "-c",
      "user.email=t@e.invalid",
      "commit",
      "-q",
      "--allow-empty",
      "-m",
      "x",
    );
    mkdirSync(join(root, "pkg"));
    const linked = join(tempDir("cpilot-format-linked-"), "wt");
    git(root, "worktree", "add", "-q", linked);
    for (const dir of [root, join(root, "pkg"), linked]) {
      expect(git(dir, "rev-parse", "--show-object-format")).toBe(format);
      expect(objectFormat(dir)).toBe(format);
    }
  },
);

test("outside any repository: git's default, sha1", () => {
  expect(objectFormat(tempDir("cpilot-format-none-"))).toBe("sha1");
});
