import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { readProjectAhead } from "../../src/cache/content.ts";
import { allFiles, changedFiles, explicitFiles, stagedFiles } from "../../src/match/files.ts";
import { gitRoot } from "../../src/match/git-root.ts";
import { walkFiles } from "../../src/match/walk.ts";
import type { FileChange } from "../../src/model/batch.ts";
import { CpilotError } from "../../src/util/errors.ts";
import { cleanGitEnv } from "./_git-oracle.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "cpilot-files-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const gitEnv = cleanGitEnv(base);
let count = 0;

/** A fresh directory (a git repo unless `git` is false) with helpers. */
function project(git = true) {
  const dir = join(base, `p${count++}`);
  mkdirSync(dir);
  const run = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: dir,
      env: gitEnv,
      stdio: ["ignore", "pipe", "pipe"],
    }).toString();
  if (git) {
    run("init", "-q", "-b", "main");
    run("config", "user.email", "t@example.invalid");
    run("config", "user.name", "t");
  }
  return {
    dir,
    git: run,
    write(name: string, content = "x\n") {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), content);
    },
    rm: (name: string) => rmSync(join(dir, name), { recursive: true }),
    commit(message = "c") {
      run("add", "-A");
      run("commit", "-q", "-m", message);
    },
  };
}

const sorted = (changes: FileChange[]) => [...changes].sort((a, b) => (a.path < b.path ? -1 : 1));
const paths = (changes: FileChange[]) => changes.map((c) => c.path).sort();
const change = (path: string, kind: FileChange["kind"]): FileChange => ({ path, kind });

/**
 * `check --all`'s files inside git, sorted, found both ways, which must agree in git's
 * order: allFiles' own listing, and the tracked files of the snapshot `check --all` reads
 * ahead for the result cache (`git status` and `git ls-files -s`).
 */
async function allPaths(dir: string): Promise<string[]> {
  const listed = (await allFiles(dir)).map((c) => c.path);
  expect((await readProjectAhead(dir))?.trackedFiles()).toEqual(listed);
  return listed.sort();
}

const HOSTILE = [
  "a b.ts",
  `q"uo'te.ts`,
  "new\nline.ts",
  "$(touch pwned).ts",
  "`touch pwned`.ts",
  "; touch pwned.ts",
  "ünï cödé/日本.ts",
  "-rf.ts",
  "*.ts",
  ":colon.ts",
  "tab\there.ts",
  " lead.ts",
  "back\\slash.ts",
];

/** Nothing named `pwned` was created anywhere a shell could have run. */
function assertNotPwned(dir: string) {
  const names: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      names.push(e.name);
      if (e.isDirectory() && !e.isSymbolicLink()) walk(join(d, e.name));
    }
  };
  walk(dir);
  expect(names.filter((n) => n === "pwned")).toEqual([]);
  expect(existsSync(join(process.cwd(), "pwned"))).toBe(false);
}

describe("gitRoot", () => {
  test("finds the top from a subdirectory, null outside git", () => {
    const p = project();
    p.write("sub/deep/a.txt");
    expect(gitRoot(join(p.dir, "sub/deep"))).toBe(p.dir);
    expect(gitRoot(project(false).dir)).toBeNull();
    expect(gitRoot(join(base, "does-not-exist"))).toBeNull();
  });
});

describe("hostile file names", () => {
  test("survive staged, changed, all and explicit sets, and run nothing", async () => {
    const p = project();
    for (const name of HOSTILE) p.write(name);
    p.commit();
    const [first, second, third, ...rest] = HOSTILE;
    p.write(first!, "changed\n");
    p.rm(second!);
    p.git("mv", "--", third!, "renamed\nnew.ts");
    p.write("$(touch pwned)/new file.ts");
    expect(sorted(await changedFiles(p.dir))).toEqual(
      sorted([
        change(first!, "modified"),
        change(second!, "deleted"),
        change(third!, "deleted"),
        change("renamed\nnew.ts", "created"),
        change("$(touch pwned)/new file.ts", "created"),
      ]),
    );
    expect(sorted(stagedFiles(p.dir))).toEqual(
      sorted([change(third!, "deleted"), change("renamed\nnew.ts", "created")]),
    );
    expect(await allPaths(p.dir)).toEqual(
      // the untracked "$(touch pwned)/new file.ts" is not tracked: --all lists what git tracks
      [first!, "renamed\nnew.ts", ...rest].sort(),
    );
    expect(await explicitFiles(p.dir, HOSTILE, p.dir)).toEqual([
      change(first!, "modified"),
      change(second!, "deleted"),
      change(third!, "deleted"),
      ...rest.map((r) => change(r, "modified")),
    ]);
    expect(paths(walkFiles(p.dir).map((path) => change(path, "modified")))).toEqual(
      paths([...(await allFiles(p.dir)), change("$(touch pwned)/new file.ts", "created")]),
    );
    assertNotPwned(base);
  });
});

describe("stagedFiles", () => {
  test("renames are the new path created and the old deleted; copies the new created", () => {
    const p = project();
    p.write("old.ts", "a\n".repeat(50));
    p.write("src.ts", "b\n".repeat(50));
    p.write("mod.ts");
    p.write("gone.ts");
    p.commit();
    p.git("mv", "old.ts", "new.ts");
    p.write("copy.ts", "b\n".repeat(50));
    p.write("mod.ts", "changed\n");
    p.rm("gone.ts");
    p.write("untracked.ts");
    p.git("add", "copy.ts", "mod.ts", "gone.ts");
    p.git("config", "diff.renames", "copies"); // the user's config must not change the answer
    expect(sorted(stagedFiles(p.dir))).toEqual(
      sorted([
        change("old.ts", "deleted"),
        change("new.ts", "created"),
        change("copy.ts", "created"),
        change("mod.ts", "modified"),
        change("gone.ts", "deleted"),
      ]),
    );
  });

  test("works before the first commit", () => {
    const p = project();
    p.write("a.ts");
    p.write("b.ts");
    p.git("add", "a.ts");
    expect(stagedFiles(p.dir)).toEqual([change("a.ts", "created")]);
  });

  test("outside git is a CpilotError", () => {
    expect(() => stagedFiles(project(false).dir)).toThrow(CpilotError);
  });
});

describe("changedFiles", () => {
  test("working tree and index against HEAD, plus untracked files that are not ignored", async () => {
    const p = project();
    p.write(".gitignore", "*.log\n");
    p.write("keep.ts");
    p.write("edit.ts");
    p.write("staged-edit.ts");
    p.write("del.ts");
    p.write("unindexed.ts");
    p.commit();
    p.write("edit.ts", "changed\n");
    p.write("staged-edit.ts", "changed\n");
    p.git("add", "staged-edit.ts");
    p.rm("del.ts");
    p.git("rm", "-q", "--cached", "unindexed.ts");
    p.write("fresh.ts");
    p.write("debug.log");
    p.write("sub/.gitignore", "local.txt\n");
    p.write("sub/local.txt");
    p.write("sub/shared.txt");
    p.write(".cpilot/runs/1.log");
    expect(sorted(await changedFiles(p.dir))).toEqual(
      sorted([
        change("edit.ts", "modified"),
        change("staged-edit.ts", "modified"),
        change("del.ts", "deleted"),
        change("unindexed.ts", "modified"),
        change("fresh.ts", "created"),
        change("sub/.gitignore", "created"),
        change("sub/shared.txt", "created"),
      ]),
    );
  });

  test("reads git's index and never rewrites it, though a file's times moved (no index.lock taken)", async () => {
    const p = project();
    p.write("same.ts");
    p.write("edit.ts");
    p.commit();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(p.dir, "same.ts"), later, later);
    p.write("edit.ts", "changed\n");
    const index = join(p.dir, ".git", "index");
    const before = { bytes: readFileSync(index), mtime: statSync(index).mtimeMs };
    const found = sorted(await changedFiles(p.dir));
    // same.ts is listed (its text is not read to tell): checked once more, never missed
    expect(found).toContainEqual(change("edit.ts", "modified"));
    expect(readFileSync(index).equals(before.bytes)).toBe(true);
    expect(statSync(index).mtimeMs).toBe(before.mtime);
  });

  test("against an older ref includes committed changes", async () => {
    const p = project();
    p.write("a.ts");
    p.write("b.ts");
    p.commit("one");
    p.write("a.ts", "two\n");
    p.git("mv", "b.ts", "c.ts");
    p.commit("two");
    p.write("d.ts");
    expect(sorted(await changedFiles(p.dir, "HEAD~1"))).toEqual(
      sorted([
        change("a.ts", "modified"),
        change("b.ts", "deleted"),
        change("c.ts", "created"),
        change("d.ts", "created"),
      ]),
    );
    expect(await changedFiles(p.dir, "HEAD")).toEqual([change("d.ts", "created")]);
  });

  test("a repository with no commit yet: every existing file is created", async () => {
    const p = project();
    p.write("a.ts");
    p.write("staged-then-deleted.ts");
    p.git("add", "-A");
    p.rm("staged-then-deleted.ts");
    p.write("untracked.ts");
    p.write(".gitignore", "*.log\n");
    p.write("x.log");
    expect(sorted(await changedFiles(p.dir))).toEqual(
      sorted([
        change("a.ts", "created"),
        change("untracked.ts", "created"),
        change(".gitignore", "created"),
      ]),
    );
  });

  test("an unknown or option-like ref is a CpilotError naming it", async () => {
    const p = project();
    p.write("a.ts");
    p.commit();
    await expect(changedFiles(p.dir, "no-such-branch")).rejects.toThrow(
      /Cannot list files changed since "no-such-branch"/,
    );
    await expect(changedFiles(p.dir, "--output=/tmp/x")).rejects.toThrow(
      /Cannot compare with "--output=\/tmp\/x"/,
    );
    await expect(changedFiles(project().dir, "main")).rejects.toThrow(CpilotError);
  });

  test("a root below the repository top sees only its own files, relative to itself", async () => {
    const p = project();
    p.write("app/a.ts");
    p.write("other/b.ts");
    p.commit();
    p.write("app/a.ts", "changed\n");
    p.write("other/b.ts", "changed\n");
    p.write("app/new.ts");
    expect(sorted(await changedFiles(join(p.dir, "app")))).toEqual(
      sorted([change("a.ts", "modified"), change("new.ts", "created")]),
    );
    expect(await allPaths(join(p.dir, "app"))).toEqual(["a.ts"]);
    // a deleted file below the root: git's status names it from the top, the root's list does not
    p.write("app/gone.ts");
    p.commit("gone");
    p.rm("app/gone.ts");
    expect(await allPaths(join(p.dir, "app"))).toEqual(["a.ts", "new.ts"]);
  });
});

describe("allFiles", () => {
  test("inside git: tracked files still on disk, no untracked file, no duplicates", async () => {
    const p = project();
    p.write(".gitignore", "dist/\n*.log\n");
    p.write("src/a.ts");
    p.write("src/b.ts");
    p.write("conflict.txt", "base\n");
    p.write("src/was-file.ts");
    p.write("gone/whole-folder.ts");
    p.commit();
    p.write("src/new.ts");
    p.write("dist/out.js");
    p.write("x.log");
    p.write(".cpilot/state.json");
    p.git("add", "src/new.ts");
    // an unmerged path is listed by git once per stage
    p.git("checkout", "-q", "-b", "other");
    p.write("conflict.txt", "other\n");
    p.commit("other");
    p.git("checkout", "-q", "main");
    p.write("conflict.txt", "main\n");
    p.git("commit", "-q", "-am", "main");
    expect(() => p.git("merge", "-q", "other")).toThrow();
    // still tracked, gone from disk: deleted, a folder now, or in a folder removed whole
    p.rm("src/b.ts");
    p.rm("src/was-file.ts");
    p.write("src/was-file.ts/inner.ts");
    p.rm("gone");
    expect(p.git("ls-files", "src/b.ts", "src/was-file.ts", "gone")).toContain(
      "gone/whole-folder.ts",
    );
    expect(await allPaths(p.dir)).toEqual([".gitignore", "conflict.txt", "src/a.ts", "src/new.ts"]);
    expect((await allFiles(p.dir)).every((c) => c.kind === "modified")).toBe(true);
  });

  test("a skip-worktree or assume-unchanged file counts only while it is on disk", async () => {
    const p = project();
    p.write("local.json");
    p.write("sparse.txt");
    p.commit();
    p.write("assumed.txt");
    p.write("kept.txt");
    p.commit();
    p.git("update-index", "--skip-worktree", "local.json", "sparse.txt");
    p.rm("sparse.txt");
    // git itself never looks at an assume-unchanged file: a deleted one is only seen on disk
    p.git("update-index", "--assume-unchanged", "assumed.txt", "kept.txt");
    p.rm("assumed.txt");
    expect(await allPaths(p.dir)).toEqual(["kept.txt", "local.json"]);
  });

  test("submodules are not files", async () => {
    const lib = project();
    lib.write("lib.ts");
    lib.commit();
    const p = project();
    p.write("a.ts");
    p.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", lib.dir, "vendor/lib");
    p.commit();
    expect(await allPaths(p.dir)).toEqual([".gitmodules", "a.ts"]);
  });

  test("outside git: a .gitignore-aware walk", async () => {
    const p = project(false);
    p.write(".gitignore", "*.log\nbuild/\n");
    p.write("a.ts");
    p.write("a.log");
    p.write("build/out.js");
    p.write("node_modules/pkg/index.js");
    expect(paths(await allFiles(p.dir))).toEqual([
      ".gitignore",
      "a.ts",
      "node_modules/pkg/index.js",
    ]);
  });
});

describe("walkFiles agrees with git ls-files --others --exclude-standard", () => {
  test("nested .gitignore files, negation, anchoring and odd directory names", () => {
    const p = project(false);
    p.write(
      ".gitignore",
      "*.log\n!keep.log\n/top-only.txt\nbuild/\nnode_modules/\n# comment\n  \nspaced\\ \n",
    );
    p.write("keep.log");
    p.write("drop.log");
    p.write("top-only.txt");
    p.write("spaced ");
    p.write("sub/top-only.txt");
    p.write("sub/keep.log");
    p.write("sub/.gitignore", "!drop.log\n/anchored.txt\ndeep/x.txt\n*.tmp\n");
    p.write("sub/drop.log");
    p.write("sub/anchored.txt");
    p.write("sub/inner/anchored.txt");
    p.write("sub/deep/x.txt");
    p.write("sub/deep/y.tmp");
    p.write("sub/inner/deep/x.txt");
    p.write("build/a.js");
    p.write("sub/build/a.js");
    p.write("node_modules/x/index.js");
    for (const odd of ["[x]", "!bang", "#hash", "sp ace", "a*b", "q?"]) {
      p.write(`${odd}/.gitignore`, "*.gen\n!keep.gen\n/anch\nd/e\n");
      p.write(`${odd}/a.gen`);
      p.write(`${odd}/keep.gen`);
      p.write(`${odd}/anch`);
      p.write(`${odd}/x/anch`);
      p.write(`${odd}/d/e`);
      p.write(`${odd}/ok.ts`);
    }
    p.write("crlf/.gitignore", "*.c\r\n!keep.c\r\n");
    p.write("crlf/a.c");
    p.write("crlf/keep.c");
    p.write("reinclude/.gitignore", "!build/\n");
    p.write("reinclude/build/kept.js");
    symlinkSync(join(p.dir, "sub"), join(p.dir, "link-to-sub"));
    symlinkSync(join(p.dir, "a-missing-target"), join(p.dir, "dangling"));
    const walked = walkFiles(p.dir);
    p.git("init", "-q");
    const listed = p
      .git("ls-files", "-z", "--others", "--exclude-standard")
      .split("\0")
      .filter(Boolean);
    expect(walked.sort()).toEqual(listed.sort());
    expect(walked).toContain("reinclude/build/kept.js");
    expect(walked).toContain("link-to-sub");
    expect(walked).not.toContain("link-to-sub/keep.log");
  });

  test("skips .git, the root .cpilot/ and a start directory that is ignored", () => {
    const p = project(false);
    p.write(".gitignore", "ignored/\n");
    p.write(".git/config");
    p.write("sub/.git");
    p.write(".cpilot/runs/1.log");
    p.write("sub/.cpilot/kept.txt");
    p.write("ignored/a.ts");
    p.write("sub/a.ts");
    expect(walkFiles(p.dir).sort()).toEqual([".gitignore", "sub/.cpilot/kept.txt", "sub/a.ts"]);
    expect(walkFiles(p.dir, "sub").sort()).toEqual(["sub/.cpilot/kept.txt", "sub/a.ts"]);
    expect(walkFiles(p.dir, "ignored")).toEqual([]);
  });
});

describe("explicitFiles", () => {
  test("paths relative to cwd or absolute; missing files are deleted; order kept, no duplicates", async () => {
    const p = project();
    p.write("src/a.ts");
    p.write("src/b.ts");
    p.commit();
    const cwd = join(p.dir, "src");
    expect(
      await explicitFiles(
        p.dir,
        ["b.ts", join(p.dir, "src/a.ts"), "gone.ts", "./b.ts", "../src/b.ts"],
        cwd,
      ),
    ).toEqual([
      change("src/b.ts", "modified"),
      change("src/a.ts", "modified"),
      change("src/gone.ts", "deleted"),
    ]);
  });

  test("a directory stands for the files below it, gitignore-aware, in git and outside", async () => {
    for (const git of [true, false]) {
      const p = project(git);
      p.write(".gitignore", "*.log\n");
      p.write("pkg/a.ts");
      p.write("pkg/deep/b.ts");
      p.write("pkg/debug.log");
      p.write("pkgx/c.ts");
      p.write("other/d.ts");
      if (git) p.commit();
      p.write("pkg/new.ts");
      expect(
        (await explicitFiles(p.dir, ["pkg/", "other/d.ts", "pkg/a.ts"], p.dir)).map((c) => c.path),
      ).toEqual([...["pkg/a.ts", "pkg/deep/b.ts", "pkg/new.ts"].sort(), "other/d.ts"]);
      // a named folder takes untracked files too; --all, in git, what git tracks
      expect(paths(await explicitFiles(p.dir, ["."], p.dir))).toEqual(
        paths([...(await allFiles(p.dir)), ...(git ? [change("pkg/new.ts", "created")] : [])]),
      );
      // named explicitly, an ignored file is still checked
      expect(await explicitFiles(p.dir, ["pkg/debug.log"], p.dir)).toEqual([
        change("pkg/debug.log", "modified"),
      ]);
    }
  });

  test("a path outside the root is a CpilotError that names it", async () => {
    const p = project();
    p.write("a.ts");
    const err = await explicitFiles(p.dir, ["../elsewhere.ts"], p.dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CpilotError);
    expect((err as CpilotError).message).toBe(
      `Cannot check "../elsewhere.ts": it is outside the project root ${p.dir}`,
    );
    await expect(explicitFiles(p.dir, ["/etc/passwd"], p.dir)).rejects.toThrow(
      /outside the project root/,
    );
    await expect(explicitFiles(p.dir, [""], p.dir)).rejects.toThrow(
      /Cannot check "": it is not a file path/,
    );
  });

  test("the root reached through a symlink is still the root; a symlinked file is not followed", async () => {
    const p = project();
    p.write("a.ts");
    const alias = join(base, `alias-${count}`);
    symlinkSync(p.dir, alias);
    symlinkSync("/etc/hostname", join(p.dir, "outside-link"));
    expect(await explicitFiles(p.dir, [join(alias, "a.ts"), "outside-link"], p.dir)).toEqual([
      change("a.ts", "modified"),
      change("outside-link", "modified"),
    ]);
  });

  test("renaming keeps both sides visible", async () => {
    const p = project(false);
    p.write("old.ts");
    renameSync(join(p.dir, "old.ts"), join(p.dir, "new.ts"));
    expect(await explicitFiles(p.dir, ["old.ts", "new.ts"], p.dir)).toEqual([
      change("old.ts", "deleted"),
      change("new.ts", "modified"),
    ]);
  });
});
