/**
 * A whole `check --all` may be replayed from one record when nothing its results depend on
 * changed since a run that replayed every result and passed. Each test here gets a project to
 * that point, changes one thing of the project's content or git's view of it, and expects the
 * next `check --all` to give the answer a real run gives: fail, or run the callback.
 */
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { committedRepo, writeFiles } from "../helpers/tmp.ts";
import {
  keepingTimes,
  outside,
  type Replayed,
  replayedProject,
  rewriteKeepingStat,
  runsIn,
} from "./_whole-replay.ts";

/** `words` fails on a .txt file holding BAD; `notes` reads every .md file, given or not. */
const CONFIG = JSON.stringify({
  callbacks: [
    { name: "words", pattern: "*.txt", run: '! grep -l BAD "$@"', timeout: 10 },
    { name: "notes", pattern: "*.md", run: "! grep -rl --include=*.md BAD .", timeout: 10 },
  ],
});

const FILES = { "callbacks.config.json": CONFIG, "a.txt": "ok1\n", "b.txt": "ok\n", "r.md": "x\n" };

describe("tracked content changed behind git's back", () => {
  test("a tracked file rewritten keeping its size and mtime", () => {
    const p = replayedProject(FILES);
    rewriteKeepingStat(p.path("a.txt"), "BAD\n");
    const r = p.check();
    expect(r.code).toBe(1);
    expect(r.text).toContain("✗ words");
  }, 60_000);

  test("a tracked file rewritten in the same second as the index (racy git)", () => {
    const p = replayedProject(FILES);
    // the index written now, the file rewritten within the same tick of the clock
    p.git("update-index", "--refresh");
    writeFileSync(p.path("a.txt"), "BAD\n");
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("a tracked file deleted, or replaced by a folder, where a callback needs it", () => {
    const files = {
      "callbacks.config.json": JSON.stringify({
        callbacks: [{ name: "keep", pattern: "*.txt", run: "test -f keep.dat", timeout: 10 }],
      }),
      "a.txt": "x\n",
      "keep.dat": "x\n",
    };
    const p = replayedProject(files);
    unlinkSync(p.path("keep.dat"));
    expect(p.check().code).toBe(1);
    mkdirSync(p.path("keep.dat"));
    writeFileSync(p.path("keep.dat/inside"), "x\n");
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("a file already changed when the check was kept, changed again keeping its stat", () => {
    const p = replayedProject(FILES, {
      beforeCommit: (q) => {
        q.git("add", "-A");
        q.git("commit", "-qm", "init");
        writeFileSync(q.path("a.txt"), "ok2\n");
        writeFileSync(q.path("new.md"), "ok3\n");
      },
      commit: false,
    });
    rewriteKeepingStat(p.path("a.txt"), "BAD\n");
    expect(p.check().code).toBe(1);
    rewriteKeepingStat(p.path("a.txt"), "ok2\n");
    expect(p.check().code).toBe(0);
    rewriteKeepingStat(p.path("new.md"), "BAD\n");
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("skip-worktree set on a file, then the file changed", () => {
    const p = replayedProject(FILES);
    p.git("update-index", "--skip-worktree", "a.txt");
    rewriteKeepingStat(p.path("a.txt"), "BAD\n");
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("assume-unchanged set on a file, then the file changed", () => {
    const p = replayedProject(FILES);
    p.git("update-index", "--assume-unchanged", "a.txt");
    rewriteKeepingStat(p.path("a.txt"), "BAD\n");
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("a new file added with intent to add (git add -N)", () => {
    const p = replayedProject(FILES);
    writeFileSync(p.path("c.txt"), "BAD\n");
    p.git("add", "-N", "c.txt");
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("an untracked file a whole-project callback reads", () => {
    const p = replayedProject(FILES);
    writeFileSync(p.path("new.md"), "BAD\n");
    const r = p.check();
    expect(r.code).toBe(1);
    expect(r.text).toContain("✗ notes");
  }, 60_000);

  test("a merge conflict: unmerged entries in the index", () => {
    const p = replayedProject(FILES);
    p.git("checkout", "-qb", "other");
    writeFileSync(p.path("a.txt"), "BAD\n");
    p.git("commit", "-qam", "theirs");
    p.git("checkout", "-q", "main");
    writeFileSync(p.path("a.txt"), "ok2\n");
    p.git("commit", "-qam", "ours");
    expect(p.check().code).toBe(0);
    expect(p.check().code).toBe(0);
    expect(p.check().code).toBe(0);
    try {
      p.git("merge", "-q", "other");
    } catch {
      // the conflict is the point
    }
    expect(p.git("ls-files", "-u")).not.toBe("");
    expect(p.check().code).not.toBe(0);
  }, 60_000);

  test("HEAD moved to a commit with another tree, the file's size and mtime kept", () => {
    const p = replayedProject(FILES);
    const first = p.git("rev-parse", "HEAD").trim();
    writeFileSync(p.path("a.txt"), "BAD\n");
    p.git("commit", "-qam", "bad");
    const bad = p.git("rev-parse", "HEAD").trim();
    p.git("checkout", "-q", first);
    expect(p.check().code).toBe(0);
    expect(p.check().code).toBe(0);
    keepingTimes(p.path("a.txt"), () => p.git("checkout", "-q", bad));
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("a tracked symlink retargeted (same length, its times put back)", () => {
    const p = replayedProject(
      {
        "callbacks.config.json": JSON.stringify({
          callbacks: [
            { name: "link", pattern: "*.txt", run: "! grep -q BAD link.dat", timeout: 10 },
          ],
        }),
        "a.txt": "x\n",
        "good.dat": "ok\n",
        "evil.dat": "BAD\n",
      },
      { beforeCommit: (q) => symlinkSync("good.dat", q.path("link.dat")) },
    );
    keepingTimes(p.path("link.dat"), () => {
      unlinkSync(p.path("link.dat"));
      symlinkSync("evil.dat", p.path("link.dat"));
    });
    expect(p.check().code).toBe(1);
  }, 60_000);

  // a real callback that reads modes: pre-commit's check-executables-have-shebangs
  test("a file made executable where the callback reads its mode", () => {
    const p = replayedProject({
      "callbacks.config.json": JSON.stringify({
        callbacks: [
          {
            name: "modes",
            pattern: "*.txt",
            run: 'for f in "$@"; do if [ -x "$f" ]; then echo "$f: executable"; exit 1; fi; done',
            timeout: 10,
          },
        ],
      }),
      "a.txt": "x\n",
    });
    keepingTimes(p.path("a.txt"), () => chmodSync(p.path("a.txt"), 0o755));
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("a file made executable where a whole-project callback reads modes", () => {
    const p = replayedProject({
      "callbacks.config.json": JSON.stringify({
        callbacks: [
          {
            name: "modes",
            pattern: "*.txt",
            run: "! find . -name '*.txt' -perm -u+x | grep .",
            timeout: 10,
          },
        ],
      }),
      "a.txt": "x\n",
    });
    keepingTimes(p.path("a.txt"), () => chmodSync(p.path("a.txt"), 0o755));
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("a changed file made executable again where a whole-project callback reads modes", () => {
    const p = replayedProject({
      "callbacks.config.json": JSON.stringify({
        callbacks: [
          {
            name: "modes",
            pattern: "*.txt",
            run: "! find . -name '*.txt' -perm -u+x | grep .",
            timeout: 10,
          },
        ],
      }),
      "a.txt": "x\n",
    });
    // already changed when the check was kept: git status says so before and after
    writeFileSync(p.path("a.txt"), "y\n");
    expect(p.check().code).toBe(0);
    expect(p.check().code).toBe(0);
    keepingTimes(p.path("a.txt"), () => chmodSync(p.path("a.txt"), 0o755));
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("a committed executable made plain, in a project of more than 64 files", () => {
    // past 64 files a file git calls unchanged takes its mode from git's index
    const many: Record<string, string> = {};
    for (let i = 0; i < 70; i++) many[`s${i}.sh`] = "#!/bin/sh\n";
    const p = replayedProject(
      {
        ...many,
        "callbacks.config.json": JSON.stringify({
          callbacks: [
            {
              name: "modes",
              pattern: "*.sh",
              run: 'for f in "$@"; do [ -x "$f" ] || { echo "$f: not executable"; exit 1; }; done',
              timeout: 10,
            },
          ],
        }),
      },
      {
        beforeCommit: (q) => {
          for (const f of Object.keys(many)) chmodSync(q.path(f), 0o755);
        },
      },
    );
    keepingTimes(p.path("s7.sh"), () => chmodSync(p.path("s7.sh"), 0o644));
    const r = p.check();
    expect(r.code).toBe(1);
    expect(r.text).toContain("s7.sh");
  }, 60_000);

  test("a file made executable where git does not compare modes (core.fileMode false), past 64 files", () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 70; i++) many[`f${i}.txt`] = "f\n";
    const p = replayedProject(
      {
        ...many,
        "callbacks.config.json": JSON.stringify({
          callbacks: [
            {
              name: "modes",
              pattern: "*.txt",
              run: 'for f in "$@"; do if [ -x "$f" ]; then echo "$f: executable"; exit 1; fi; done',
              timeout: 10,
            },
          ],
        }),
      },
      { beforeCommit: (q) => q.git("config", "core.fileMode", "false") },
    );
    keepingTimes(p.path("f7.txt"), () => chmodSync(p.path("f7.txt"), 0o755));
    expect(p.git("status", "--porcelain")).toBe("");
    expect(p.check().code).toBe(1);
  }, 60_000);
});

describe("what git's status does not say", () => {
  test("a file git's ident attribute cleans back to the committed blob", () => {
    // `git status` compares the cleaned content: "$Id: BAD $" cleans to "$Id$" as the
    // committed file does, so git calls it unchanged while the bytes a callback reads differ
    const p = replayedProject({
      ".gitattributes": "*.txt ident\n",
      "callbacks.config.json": CONFIG,
      "a.txt": "$Id: ok1 $\n",
      "r.md": "x\n",
    });
    writeFileSync(p.path("a.txt"), "$Id: BAD $\n");
    expect(p.git("status", "--porcelain")).toBe("");
    const r = p.check();
    expect(r.code).toBe(1);
    expect(r.text).toContain("✗ words");
  }, 60_000);

  // past 64 files the per-callback key takes the ids git's index holds for the files git calls
  // unchanged, unless git may convert bytes as it compares them
  test("the ident attribute in a project of more than 64 files", () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 70; i++) many[`f${i}.txt`] = "f\n";
    const p = replayedProject({
      ...many,
      ".gitattributes": "*.txt ident\n",
      "callbacks.config.json": CONFIG,
      "a.txt": "$Id: ok1 $\n",
    });
    writeFileSync(p.path("a.txt"), "$Id: BAD $\n");
    expect(p.check().code).toBe(1);
  }, 60_000);

  // a submodule's work tree changed: git says only that it is dirty, not what changed
  test("a dirty submodule's file changed again", () => {
    const sub = committedRepo("cpilot-sub-", { "x.txt": "ok1\n" });
    const p = replayedProject(
      {
        "callbacks.config.json": JSON.stringify({
          callbacks: [
            { name: "sub", pattern: "*.txt", run: "! grep -l BAD sub/x.txt", timeout: 10 },
          ],
        }),
        "a.txt": "x\n",
      },
      {
        beforeCommit: (q) => {
          q.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sub");
          writeFileSync(q.path("sub/x.txt"), "ok2\n");
        },
      },
    );
    rewriteKeepingStat(p.path("sub/x.txt"), "BAD\n");
    expect(p.check().code).toBe(1);
  }, 60_000);
});

describe("submodules and git's conversions", () => {
  const SUB = JSON.stringify({
    callbacks: [{ name: "sub", pattern: "*.txt", run: "! grep -l BAD sub/x.txt", timeout: 10 }],
  });

  function withSubmodule(sub: string, setUp: (q: Replayed) => void = () => {}): Replayed {
    return replayedProject(
      { "callbacks.config.json": SUB, "a.txt": "x\n" },
      {
        beforeCommit: (q) => {
          q.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sub");
          setUp(q);
        },
      },
    );
  }

  test("a submodule moved to another commit, then to a third", () => {
    const sub = committedRepo("cpilot-sub-", { "x.txt": "ok1\n" });
    const at = (q: Replayed, content: string) => {
      writeFileSync(q.path("sub/x.txt"), content);
      execFileSync("git", ["commit", "-qam", content], { cwd: q.path("sub") });
    };
    const p = withSubmodule(sub, (q) => {
      for (const [k, v] of Object.entries({ "user.email": "t@example.invalid", "user.name": "t" }))
        execFileSync("git", ["config", k, v], { cwd: q.path("sub") });
    });
    // kept while the submodule is at a commit the parent does not hold, git saying only that
    at(p, "ok2\n");
    expect(p.check().code).toBe(0);
    expect(p.check().code).toBe(0);
    at(p, "BAD\n");
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("a dirty submodule the config tells git status to hide", () => {
    const sub = committedRepo("cpilot-sub-", { "x.txt": "ok1\n" });
    const p = withSubmodule(sub, (q) => {
      q.git("config", "diff.ignoreSubmodules", "all");
      writeFileSync(q.path("sub/x.txt"), "ok2\n");
    });
    rewriteKeepingStat(p.path("sub/x.txt"), "BAD\n");
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("a file git's ident attribute cleans back, where a whole-project callback reads it", () => {
    const p = replayedProject({
      ".gitattributes": "*.txt ident\n",
      "callbacks.config.json": JSON.stringify({
        callbacks: [
          { name: "all", pattern: "*.md", run: "! grep -rl --include=*.txt BAD .", timeout: 10 },
        ],
      }),
      "a.txt": "$Id: ok1 $\n",
      "r.md": "x\n",
    });
    writeFileSync(p.path("a.txt"), "$Id: BAD $\n");
    expect(p.git("status", "--porcelain")).toBe("");
    expect(p.check().code).toBe(1);
  }, 60_000);

  test("a file git's ident attribute cleans back, read beside the files a callback is given", () => {
    const p = replayedProject({
      ".gitattributes": "*.txt ident\n",
      "callbacks.config.json": JSON.stringify({
        callbacks: [{ name: "near", pattern: "*.md", run: "! grep -l BAD a.txt", timeout: 10 }],
      }),
      "a.txt": "$Id: ok1 $\n",
      "r.md": "x\n",
    });
    writeFileSync(p.path("a.txt"), "$Id: BAD $\n");
    expect(p.git("status", "--porcelain")).toBe("");
    expect(p.check().code).toBe(1);
  }, 60_000);
});

describe("folders that stop or start being the project's own", () => {
  // virtualenv markers are ignored, as a real virtualenv's own .gitignore makes them
  const IGNORE = "pyvenv.cfg\nCACHEDIR.TAG\nconda-meta/\n";
  const logging = (log: string) =>
    JSON.stringify({
      callbacks: [
        {
          name: "words",
          pattern: "*.txt",
          run: `echo "$@" >> ${log}; ! grep -l BAD "$@"`,
          timeout: 10,
        },
      ],
    });

  test("a virtualenv's marker removed: its tracked files are the project's again", () => {
    const log = join(outside(), "log");
    const p = replayedProject(
      {
        ".gitignore": IGNORE,
        "callbacks.config.json": logging(log),
        "a.txt": "ok\n",
        "lib/x.txt": "BAD\n",
        "lib/pyvenv.cfg": "home = /usr/bin\n",
      },
      // a folder left out is said, and a check that says more than its runs is not kept whole
      { wholeReplayed: false },
    );
    keepingTimes(p.path("lib"), () => unlinkSync(p.path("lib/pyvenv.cfg")));
    const r = p.check();
    expect(r.code).toBe(1);
    expect(r.text).toContain("lib/x.txt");
  }, 60_000);

  for (const marker of ["pyvenv.cfg", "CACHEDIR.TAG", "conda-meta"]) {
    test(`a ${marker} added to a folder of tracked files: they are no longer given`, () => {
      const log = join(outside(), "log");
      const p = replayedProject({
        ".gitignore": IGNORE,
        "callbacks.config.json": logging(log),
        "a.txt": "ok\n",
        "lib/deep/x.txt": "ok\n",
      });
      const before = runsIn(log);
      keepingTimes(p.path("lib/deep"), () => {
        if (marker === "conda-meta") mkdirSync(p.path("lib/deep/conda-meta"));
        else
          writeFileSync(
            p.path(`lib/deep/${marker}`),
            "Signature: 8a477f597d28d172789f06886806bc55\n",
          );
      });
      const r = p.check();
      expect(r.code).toBe(0);
      expect(runsIn(log)).toBe(before + 1);
      expect(r.text).not.toContain("lib/deep/x.txt");
      expect(r.text).not.toMatch(/on 5 files/);
    }, 60_000);
  }

  test("a pyvenv.cfg added two folders above the tracked files", () => {
    const log = join(outside(), "log");
    const p = replayedProject({
      ".gitignore": IGNORE,
      "callbacks.config.json": logging(log),
      "a.txt": "ok\n",
      "lib/deep/deeper/x.txt": "ok\n",
    });
    const before = runsIn(log);
    keepingTimes(p.path("lib"), () => writeFileSync(p.path("lib/pyvenv.cfg"), "home = /usr\n"));
    const r = p.check();
    expect(r.code).toBe(0);
    expect(runsIn(log)).toBe(before + 1);
    expect(r.text).toContain("lib/ left out");
    expect(r.text).not.toContain("lib/deep/deeper/x.txt");
  }, 60_000);

  test("a nested git repository appears over a folder of tracked files", () => {
    const log = join(outside(), "log");
    const p = replayedProject({
      ".gitignore": IGNORE,
      "callbacks.config.json": logging(log),
      "a.txt": "ok\n",
      "lib/x.txt": "ok\n",
    });
    const before = runsIn(log);
    keepingTimes(p.path("lib"), () => mkdirSync(p.path("lib/.git")));
    const r = p.check();
    expect(r.code).toBe(0);
    expect(runsIn(log)).toBe(before + 1);
    rmSync(p.path("lib/.git"), { recursive: true });
  }, 60_000);

  test("a nested package config added (committed): its package is judged by it", () => {
    const p = replayedProject(FILES);
    writeFiles(p.dir, {
      "pkg/callbacks.config.json": JSON.stringify({
        callbacks: [{ name: "inner", pattern: "*.txt", run: "false", timeout: 10 }],
      }),
      "pkg/c.txt": "x\n",
    });
    p.git("add", "-A");
    p.git("commit", "-qm", "nested");
    const r = p.check();
    expect(r.code).toBe(1);
    expect(r.text).toContain("inner");
  }, 60_000);
});
