/**
 * Five public projects cpilot had not seen, tried as a newcomer would: `init --yes`, the first
 * `check --all`, then a compile error in a nested module and a rename that breaks another
 * module, each told to `check --all` and to a Claude Code PostToolUse hook call. Snapshots
 * under tests/fixtures/projects/real-* (the upstream commit in UPSTREAM.txt); cargo, go and
 * mypy are the real ones, the tools this machine cannot install are recorders.
 */
import { expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { treeState } from "../helpers/tree-state.ts";
import {
  argv,
  changedOwn,
  filesHanded,
  hasPython,
  init,
  notOwn,
  RECORDER,
  ran,
  type Setup,
  setUp,
  writeTool,
} from "./real-project-kit.ts";

const has = (tool: string) => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;

function commit(s: Setup, message: string): void {
  execFileSync("git", ["add", "-A", "--", ".", ":!.venv"], { cwd: s.root });
  execFileSync("git", ["commit", "-qm", message], { cwd: s.root });
}

/** What Claude Code sends after its Edit tool replaced `from` with `to` in `file`; what it is told. */
function edit(s: Setup, file: string, from: string, to: string, all = false): string {
  const path = join(s.root, file);
  const text = readFileSync(path, "utf8");
  expect(text).toContain(from);
  writeFileSync(path, all ? text.replaceAll(from, to) : text.replace(from, to));
  const r = cpilot(["hook", "claude"], {
    cwd: s.root,
    env: s.env,
    // a Cargo or Go check after an edit builds what changed: no 60 s limit on a busy machine
    timeoutMs: 240_000,
    input: JSON.stringify({
      session_id: "s1",
      cwd: s.root,
      hook_event_name: "PostToolUse",
      tool_name: "Edit",
      tool_input: { file_path: path, old_string: from, new_string: to, replace_all: all },
      tool_response: { filePath: path },
      tool_use_id: `toolu_${file}`,
    }),
  });
  // Claude Code's reply: JSON whose `reason` is what the model reads
  const reason = r.stdout.trim() === "" ? "" : (JSON.parse(r.stdout) as { reason?: string }).reason;
  return `${reason ?? r.stdout}\n${r.stderr}`;
}

test.skipIf(!hasPython || !has("mypy"))(
  "pallets/itsdangerous (ruff with `fix = true`, mypy over [tool.mypy] files, pytest; an untracked .venv): ruff is the fixer it is, the venv is never handed over, a rename that breaks other modules is told",
  () => {
    const s = setUp("itsdangerous");
    // as `uv sync` leaves it: neither tracked nor ignored (the maintainers ignore it globally)
    execFileSync("python3", ["-m", "venv", join(s.root, ".venv")]);
    // ruff, pytest and pyright need PyPI: recorders where uv puts them. `ruff check --diff`
    // prints no fix, so ruff is proven to change nothing now
    for (const tool of ["ruff", "pytest", "pyright"])
      writeTool(join(s.root, ".venv/bin", tool), RECORDER(s.log, tool));
    const venv = notOwn(s, [".venv/"]);
    const { callbacks, plan } = init(s);
    // [tool.ruff] fix = true: the project's bare `ruff` pre-commit hook fixes
    expect(callbacks.get("ruff")).toMatchObject({
      run: [".venv/bin/ruff", "check", "--fix", "--quiet", "{files}"],
      fixes: true,
    });
    expect(plan).toContain("ruff check --diff: --fix would change 0 of");
    expect(argv(callbacks.get("ruff-format"))).toBe(".venv/bin/ruff format --quiet {files}");
    // over [tool.mypy] files = ["src"], not the edited file: what an edit breaks elsewhere is seen
    expect(argv(callbacks.get("mypy"))).toBe("mypy --show-column-numbers");
    expect(callbacks.get("pytest")).toMatchObject({ blocking: false });
    commit(s, "cpilot init");

    const before = treeState(s.root);
    // the installed mypy may be older than the project's (Debian's 1.0.1 rejects its PEP 696
    // TypeVar default): its findings are recorded as already there, whatever the exit
    cpilot(["check", "--all"], { cwd: s.root, env: s.env });
    expect(changedOwn(s, before)).toEqual([]);
    expect(filesHanded(s).filter((f) => f.startsWith(".venv/"))).toEqual([]);
    expect(
      ran(s).some((r) => r.tool === "ruff" && r.args.join(" ").startsWith("check --fix")),
    ).toBe(true);
    expect(notOwn(s, [".venv/"])).toEqual(venv);

    // a type error in a module, then a rename that breaks the modules importing it
    writeFileSync(
      join(s.root, "src/itsdangerous/exc.py"),
      `${readFileSync(join(s.root, "src/itsdangerous/exc.py"), "utf8")}\nbroken: int = "not an int"\n`,
    );
    const all = cpilot(["check", "--all"], { cwd: s.root, env: s.env });
    expect(all.code).toBe(1);
    expect(all.stderr).toMatch(/src\/itsdangerous\/exc\.py:\d+:\d+ error assignment/);
    execFileSync("git", ["checkout", "src/itsdangerous/exc.py"], { cwd: s.root });
    const told = edit(
      s,
      "src/itsdangerous/encoding.py",
      "def want_bytes(",
      "def want_bytes_renamed(",
    );
    expect(told).toMatch(
      /src\/itsdangerous\/(?!encoding)\w+\.py:\d+:\d+ error attr-defined: Module "itsdangerous\.encoding" has no attribute "want_bytes"/,
    );
    expect(notOwn(s, [".venv/"])).toEqual(venv);
  },
  300_000,
);

test.skipIf(!has("cargo"))(
  "rust-lang/futures-rs (a Cargo workspace; rustfmt run per file by its CI): the members are checked together, a compile error in one fails the check, a rename in futures-core that breaks futures-channel is told",
  () => {
    const s = setUp("futures");
    const { callbacks, plan } = init(s);
    expect([...callbacks.keys()]).toEqual(["rustfmt", "clippy", "cargo-test"]);
    // per file, as its CI runs it, with .rustfmt.toml's edition (the root names none)
    expect(argv(callbacks.get("rustfmt"))).toBe("rustfmt --edition 2018 {files}");
    expect(plan).toContain(".rustfmt.toml (edition 2018); rustfmt --check: would rewrite 0 of");
    expect(argv(callbacks.get("clippy"))).toContain("cargo clippy --workspace --all-targets");
    expect(callbacks.get("cargo-test")).toMatchObject({ blocking: false });
    expect(plan).toContain("from Cargo.toml (a workspace)");
    commit(s, "cpilot init");

    const before = treeState(s.root);
    // cargo builds the workspace from cold: slow on a busy machine, so no 60 s limit here
    const slow = { cwd: s.root, env: s.env, timeoutMs: 240_000 };
    const first = cpilot(["check", "--all"], slow);
    expect(first.stderr).toMatch(/✓ clippy/);
    expect(first.stderr).toMatch(/✓ rustfmt/);
    // nothing rewritten: the stable rustfmt agrees with the project's nightly one here
    expect(changedOwn(s, before)).toEqual([]);

    const task = join(s.root, "futures-task/src/lib.rs");
    const clean = readFileSync(task, "utf8");
    writeFileSync(task, `${clean}\npub fn broken() -> u32 {\n    "not a number"\n}\n`);
    const broken = cpilot(["check", "--all"], slow);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/futures-task\/src\/lib\.rs:\d+:\d+ error E0308/);
    writeFileSync(task, clean);

    // renamed everywhere in futures-core (its re-export, then the trait), so only its
    // dependent breaks
    edit(s, "futures-core/src/lib.rs", "FusedStream", "FusedStreamRenamed", true);
    const told = edit(s, "futures-core/src/stream.rs", "FusedStream", "FusedStreamRenamed", true);
    expect(told).toContain("futures-channel/src/mpsc/mod.rs");
    expect(told).toContain("FusedStream");
  },
  300_000,
);

test.skipIf(!has("go"))(
  "cespare/xxhash (a nested module that compiles the root one through `replace => ../`): each module vetted in its folder, a compile error in the nested one fails the check, a rename in the root that breaks it is told",
  () => {
    const s = setUp("xxhash");
    // the project's CI also runs `-tags purego`: the snapshot keeps the pure-Go build only;
    // no download, ever
    const env = { ...s.env, GOFLAGS: "-tags=purego", GOPROXY: "off" };
    const go = { ...s, env };
    const { callbacks, plan } = init(go);
    expect(callbacks.get("go-vet")?.pattern).toEqual(["*.go", "go.mod", "!xxhashbench/**"]);
    // its CI runs go test, never go vet (whose asmdecl fails on its assembly): go test's vet
    expect(argv(callbacks.get("go-vet"))).toBe(
      "go vet -atomic -bools -buildtag -errorsas -ifaceassert -nilfunc -printf -stringintconv ./...",
    );
    expect(callbacks.get("go-vet-xxhashbench")).toMatchObject({ cwd: "xxhashbench" });
    expect(plan).toContain("it compiles the root module from its folder");
    commit(s, "cpilot init");

    const before = treeState(s.root);
    expect(cpilot(["check", "--all"], { cwd: s.root, env }).code).toBe(0);
    expect(changedOwn(s, before)).toEqual([]);

    const bench = join(s.root, "xxhashbench/xxhashbench_test.go");
    const clean = readFileSync(bench, "utf8");
    writeFileSync(bench, clean.replace("var sink uint64", "var sink uint64 = undefinedName"));
    const broken = cpilot(["check", "--all"], { cwd: s.root, env });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain("go-vet-xxhashbench");
    expect(broken.stderr).toContain("undefinedName");
    writeFileSync(bench, clean);

    const told = edit(go, "xxhash.go", "func New() *Digest", "func NewDigest() *Digest");
    expect(told).toContain("go-vet-xxhashbench");
    expect(told).toContain("xxhashbench/xxhashbench_test.go");
  },
  300_000,
);

test("TanStack/store (pnpm workspace, tools only at the root, eslint and prettier; react-store maps @tanstack/store to its source): init before `pnpm install` names the tools where pnpm puts them, and an edit in store re-checks react-store", () => {
  const s = setUp("tanstack-store");
  // init before install, as a newcomer to a fresh clone does
  const { callbacks, plan } = init(s);
  expect(argv(callbacks.get("typecheck-packages-store"))).toBe(
    "../../node_modules/.bin/tsc --noEmit",
  );
  expect(argv(callbacks.get("eslint-packages-react-store"))).toBe(
    "../../node_modules/.bin/eslint --no-warn-ignored {files}",
  );
  expect(callbacks.get("vitest-packages-store")).toMatchObject({
    cwd: "packages/store",
    blocking: false,
  });
  // the root's `format` script: prettier --write over the tree, what .prettierignore leaves
  expect(callbacks.get("prettier")).toMatchObject({ fixes: true });
  expect(plan).toContain("typecheck at the root: left out, the packages check their own types");
  commit(s, "cpilot init");
  // then `pnpm install`: the root's devDependencies in the root's node_modules/.bin only
  for (const tool of ["eslint", "prettier", "tsc", "vitest"])
    writeTool(join(s.root, "node_modules/.bin", tool), RECORDER(s.log, tool));

  const before = treeState(s.root);
  const first = cpilot(["check", "--all"], { cwd: s.root, env: s.env });
  expect({ code: first.code, notFound: first.stderr.includes("exit 127") }).toEqual({
    code: 0,
    notFound: false,
  });
  expect(changedOwn(s, before)).toEqual([]);
  expect(filesHanded(s).filter((f) => f.includes("node_modules/"))).toEqual([]);
  const tsc = ran(s).filter((r) => r.tool === "tsc");
  expect(tsc.map((r) => r.cwd).sort()).toEqual(["packages/react-store", "packages/store"]);

  writeFileSync(s.log, "");
  edit(
    s,
    "packages/store/src/store.ts",
    "export function createStore<T>(initialValue: T)",
    "export function makeStore<T>(initialValue: T)",
  );
  expect(
    ran(s)
      .filter((r) => r.tool === "tsc")
      .map((r) => r.cwd),
  ).toContain("packages/react-store");
});

test("mobxjs/mobx (npm workspaces, eslint 6 over `src/**/*`, prettier 2; mobx-react reads mobx-react-lite's types from dist/): the tools are found at the root once installed, eslint never gets a Markdown file, a rename in mobx-react-lite re-checks mobx-react", () => {
  const s = setUp("mobx");
  const { callbacks, plan } = init(s);
  // init before `npm ci`: npm hoists the root's tools to the root's node_modules/.bin
  expect(argv(callbacks.get("eslint-packages-mobx-react"))).toBe(
    "../../node_modules/.bin/eslint {files}",
  );
  expect(argv(callbacks.get("prettier"))).toContain("--loglevel warn");
  expect(plan).toContain("it reads mobx-react-lite (dist/index.d.ts) from built types");
  commit(s, "cpilot init");
  for (const tool of ["eslint", "prettier", "tsc", "jest"])
    writeTool(join(s.root, "node_modules/.bin", tool), RECORDER(s.log, tool));
  // a note beside the code, which `eslint src/**/*` names but eslint cannot parse
  writeFileSync(join(s.root, "packages/mobx-react/src/NOTES.md"), "# Notes\n");
  commit(s, "notes");

  const before = treeState(s.root);
  const first = cpilot(["check", "--all"], { cwd: s.root, env: s.env });
  expect({ code: first.code, notFound: first.stderr.includes("exit 127") }).toEqual({
    code: 0,
    notFound: false,
  });
  expect(changedOwn(s, before)).toEqual([]);
  const eslinted = ran(s)
    .filter((r) => r.tool === "eslint")
    .flatMap((r) => r.args);
  expect(eslinted).toContain("src/observer.tsx");
  expect(eslinted.filter((a) => a.endsWith(".md"))).toEqual([]);

  writeFileSync(s.log, "");
  edit(
    s,
    "packages/mobx-react-lite/src/observer.ts",
    "export function observer",
    "export function observe",
  );
  expect(ran(s)).toContainEqual({
    cwd: "packages/mobx-react",
    tool: "tsc",
    args: ["--noEmit", "-p", "tsconfig.cpilot.json"],
  });
});
