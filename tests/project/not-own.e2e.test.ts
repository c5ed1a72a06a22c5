import { expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";
import { treeState } from "../helpers/tree-state.ts";

const git = (root: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd: root, encoding: "utf8" });

const hasPython = spawnSync("python3", ["--version"]).status === 0;

/**
 * A project whose fixer appends a line to every file it is given and lists it in a file
 * outside the project, with a real virtualenv in `.venv` that git does not ignore (its
 * maintainer ignores it globally), a nested git repository, Cargo's target/, an ignored
 * dist/, a node_modules and a __pycache__, some of them tracked.
 */
function project(): { root: string; seen: string } {
  const root = tempDir("cpilot-not-own-", { git: true });
  const seen = join(tempDir("cpilot-not-own-seen-"), "seen.txt");
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        {
          name: "stamp",
          pattern: ["*.py", "*.js", "*.rs"],
          fixes: true,
          timeout: 30,
          run: `for f in "$@"; do echo "# stamped" >> "$f"; echo "$f" >> '${seen}'; done`,
        },
      ],
    }),
    ".gitignore": ".cpilot/\ndist/\n",
    "pkg/mod.py": "x = 1\n",
    "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
    "src/main.rs": "fn main() {}\n",
    "target/debug/build/gen.rs": "// generated\n",
    "dist/bundle.js": "bundled\n",
    "build/tool.py": "# the project's own build script, tracked\n",
    "node_modules/left-pad/index.js": "module.exports = 1\n",
    "pkg/__pycache__/mod.py": "# not really\n",
    "vendor/other/lib.py": "y = 2\n",
  });
  execFileSync("python3", ["-m", "venv", "--without-pip", join(root, ".venv")]);
  writeFiles(root, { ".venv/lib/site-packages/installed.py": "z = 3\n" });
  git(root, "add", "-A");
  // tracked anyway: a committed node_modules file and a committed virtualenv file
  git(root, "add", "-f", "node_modules/left-pad/index.js", ".venv/lib/site-packages/installed.py");
  git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init");
  // a repository cloned inside the project later: its files stay tracked by the outer one
  git(join(root, "vendor/other"), "init", "-q");
  return { root, seen };
}

const NOT_OWN = [".venv/", "node_modules/", "target/", "dist/", "vendor/", "pkg/__pycache__/"];

/** The files of the folders that are not the project's own, as {@link treeState} sees them. */
const notOwnState = (root: string): [string, string][] =>
  Object.entries(treeState(root)).filter(([path]) => NOT_OWN.some((f) => path.startsWith(f)));

const stamped = (seen: string): string[] => {
  try {
    return readFileSync(seen, "utf8").trim().split("\n").sort();
  } catch {
    return [];
  }
};

test.skipIf(!hasPython)(
  "check --all hands no file in a virtualenv, node_modules, target/, an ignored dist/ or a nested repository to a fixer, tracked or not",
  () => {
    const { root, seen } = project();
    const before = notOwnState(root);
    expect(before.length).toBeGreaterThan(5);
    const r = cpilot(["check", "--all"], { cwd: root, env: { CI: "" } });
    expect(r.stderr).toContain(".venv/ left out: a virtualenv (pyvenv.cfg)");
    expect(r.stderr).toContain("node_modules/ left out");
    expect(stamped(seen)).toEqual(["build/tool.py", "pkg/mod.py", "src/main.rs"]);
    expect(notOwnState(root)).toEqual(before);
  },
);

test.skipIf(!hasPython)(
  "check (changed since HEAD, untracked included) and named paths leave the same folders out",
  () => {
    const { root, seen } = project();
    // new, untracked files everywhere: in the venv, the nested repo, target/, dist/
    writeFiles(root, {
      ".venv/lib/site-packages/new.py": "n = 1\n",
      "vendor/other/new.py": "n = 1\n",
      "target/debug/new.rs": "// new\n",
      "dist/new.js": "new\n",
      "pkg/new.py": "n = 1\n",
    });
    mkdirSync(join(root, "env2"));
    writeFileSync(join(root, "env2", "pyvenv.cfg"), "home = /usr/bin\n");
    writeFileSync(join(root, "env2", "site.py"), "s = 1\n");
    expect(cpilot(["check"], { cwd: root, env: { CI: "" } }).code).toBe(0);
    expect(stamped(seen)).toEqual(["pkg/new.py"]);
    const named = cpilot(["check", ".venv/lib/site-packages/new.py", "env2", "dist/new.js"], {
      cwd: root,
      env: { CI: "" },
    });
    expect(named.code).toBe(0);
    expect(stamped(seen)).toEqual(["pkg/new.py"]);
    expect(readFileSync(join(root, ".venv/lib/site-packages/new.py"), "utf8")).toBe("n = 1\n");
  },
);

test.skipIf(!hasPython)(
  "an agent's edit inside a virtualenv or node_modules reaches no callback; one in the project does",
  () => {
    const { root, seen } = project();
    const hook = (file: string) =>
      cpilot(["hook", "claude"], {
        cwd: root,
        input: JSON.stringify({
          session_id: "s1",
          cwd: root,
          hook_event_name: "PostToolUse",
          tool_name: "Write",
          tool_input: { file_path: join(root, file), content: "x" },
          tool_response: { type: "update", filePath: join(root, file) },
          tool_use_id: "toolu_1",
        }),
      });
    expect(hook(".venv/lib/site-packages/installed.py").code).toBe(0);
    expect(hook("node_modules/left-pad/index.js").code).toBe(0);
    expect(stamped(seen)).toEqual([]);
    expect(hook("pkg/mod.py").code).toBe(0);
    expect(stamped(seen)).toEqual(["pkg/mod.py"]);
  },
);

test.skipIf(!hasPython)(
  "--all lists what git tracks: an untracked file of the project waits for `check` or its name",
  () => {
    const { root, seen } = project();
    writeFiles(root, { "pkg/new.py": "n = 1\n" });
    expect(cpilot(["check", "--all"], { cwd: root, env: { CI: "" } }).code).toBe(0);
    expect(stamped(seen)).not.toContain("pkg/new.py");
    expect(cpilot(["check", "pkg/new.py"], { cwd: root, env: { CI: "" } }).code).toBe(0);
    expect(stamped(seen)).toContain("pkg/new.py");
  },
);

/** A committed project of `files` whose fixer stamps every *.py file it is given and lists it in `seen`. */
function stampedPy(prefix: string, files: Record<string, string>): { root: string; seen: string } {
  const root = tempDir(prefix, { git: true });
  const seen = join(tempDir("cpilot-not-own-seen-"), "seen.txt");
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        {
          name: "stamp",
          pattern: "*.py",
          fixes: true,
          timeout: 30,
          run: `for f in "$@"; do echo "# stamped" >> "$f"; echo "$f" >> '${seen}'; done`,
        },
      ],
    }),
    ...files,
  });
  git(root, "add", "-A");
  git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init");
  return { root, seen };
}

test("check --all: a tracked file beside an ignored pyvenv.cfg, CACHEDIR.TAG or conda-meta reaches no fixer", () => {
  const { root, seen } = stampedPy("cpilot-not-own-ignored-", {
    // every marker is ignored, so git lists none of them: only the disk says they are there
    ".gitignore": ".cpilot/\npyvenv.cfg\nCACHEDIR.TAG\nconda-meta/\n",
    "env/pyvenv.cfg": "home = /usr/bin\n",
    "env/lib/site.py": "s = 1\n",
    "env/top.py": "t = 1\n",
    "cache/CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55\n",
    "cache/gen.py": "g = 1\n",
    "conda/conda-meta/history": "==> 2024 <==\n",
    "conda/bin/tool.py": "c = 1\n",
    "pkg/mod.py": "x = 1\n",
  });
  expect(git(root, "ls-files")).not.toContain("pyvenv.cfg");
  const before = treeState(root);
  const r = cpilot(["check", "--all"], { cwd: root, env: { CI: "" } });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("env/ left out: a virtualenv (pyvenv.cfg)");
  expect(r.stderr).toContain("cache/ left out: a cache or build output (CACHEDIR.TAG)");
  expect(r.stderr).toContain("conda/ left out: a conda environment");
  expect(stamped(seen)).toEqual(["pkg/mod.py"]);
  const after = treeState(root);
  for (const path of ["env/lib/site.py", "env/top.py", "cache/gen.py", "conda/bin/tool.py"])
    expect(after[path]).toEqual(before[path]);
});

test("check --all looks into a folder again once a marker appears in it, even with its modified time put back", async () => {
  const { root, seen } = stampedPy("cpilot-not-own-again-", {
    ".gitignore": ".cpilot/\npyvenv.cfg\n",
    "pkg/mod.py": "x = 1\n",
    "other/lib.py": "y = 1\n",
  });
  // a folder is remembered only once its last change is a few seconds old
  await Bun.sleep(3500);
  expect(cpilot(["check", "--all"], { cwd: root, env: { CI: "" } }).code).toBe(0);
  expect(stamped(seen)).toEqual(["other/lib.py", "pkg/mod.py"]);
  // the folder's modified time put back to the nanosecond, as `touch -d` can
  const mtimeNs = () => statSync(join(root, "pkg"), { bigint: true }).mtimeNs;
  const before = mtimeNs();
  writeFileSync(join(root, "pkg", "pyvenv.cfg"), "home = /usr/bin\n");
  const seconds = `${before / 1_000_000_000n}.${String(before % 1_000_000_000n).padStart(9, "0")}`;
  execFileSync("touch", ["-m", "-d", `@${seconds}`, join(root, "pkg")]);
  expect(mtimeNs()).toBe(before);
  const again = cpilot(["check", "--all"], { cwd: root, env: { CI: "" } });
  expect(again.stderr).toContain("pkg/ left out: a virtualenv (pyvenv.cfg)");
  expect(stamped(seen)).toEqual(["other/lib.py", "other/lib.py", "pkg/mod.py"]);
});
