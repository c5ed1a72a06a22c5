/**
 * mypy stops at a blocking error (a syntax error, a module found twice) before it
 * type-checks any module, and says "errors prevented further checking": with an old syntax
 * error in src/old.py, the agent's type error in src/b.py is never printed. The agent is
 * told its edits were not checked and is blocked; `check --new-only` fails; the files mypy
 * never checked are not recorded clean. With the real mypy (Debian's 1.0.1 here); skipped
 * where it is absent.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { batchEndContext } from "../agents/claude/_helpers.ts";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo } from "../helpers/tmp.ts";

const MYPY = spawnSync("sh", ["-c", "command -v mypy"], { encoding: "utf8" }).stdout.trim();
const BLOCKS = "checks failed after your last edits";
const stopped = (file: string) =>
  `it stopped at other errors before it reached ${file}: your edits there were not checked`;

const hook = batchEndContext;

/** src/old.py has an old syntax error; src/c.py an old type error mypy never gets to. */
function project(flags = "--show-column-numbers"): string {
  return committedRepo("cpilot-mypy-blocked-", {
    ".gitignore": ".cpilot/\n.mypy_cache/\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        {
          name: "mypy",
          pattern: "*.py",
          // as init proposes it for a project with src/
          run: `${MYPY} ${flags} src`,
          timeout: 120,
        },
      ],
    }),
    "src/old.py": "def broken(:\n    pass\n",
    "src/b.py": "def two() -> int:\n    return 2\n",
    "src/c.py": 'three: int = "3"\n',
  });
}

test.skipIf(MYPY === "")(
  "mypy stopped at an old syntax error: the agent's type error is not passed as old; it is told its edits were not checked, and blocked",
  () => {
    const root = project();
    const all = cpilot(["check", "--all"], { cwd: root });
    expect(all.stderr).toContain("src/old.py:1:13 error syntax");
    expect(all.stderr).not.toContain("src/c.py");
    writeFileSync(join(root, "src/b.py"), 'def two() -> int:\n    return "2"\n');
    const told = hook(root, "src/b.py");
    expect(told).toContain(BLOCKS);
    expect(told).toContain(stopped("src/b.py"));
    // The agent fixes the old error, as told: mypy now checks every module. The agent's
    // error comes; c.ts's old one, which no run read before, is not called the agent's
    // (recorded clean, it would be).
    writeFileSync(join(root, "src/old.py"), "def broken() -> None:\n    pass\n");
    const then = hook(root, "src/old.py");
    expect(then).toContain(BLOCKS);
    expect(then).toContain("src/b.py:2:12");
    expect(then).not.toContain("were not checked");
    expect(then).toContain("that cpilot had not read before");
    expect(then).toContain("src/c.py:1:14");
  },
  120_000,
);

test.skipIf(MYPY === "")(
  "mypy --no-error-summary stopped at an old syntax error: its syntax error alone says it stopped",
  () => {
    const root = project("--no-error-summary --show-column-numbers");
    expect(cpilot(["check", "--all"], { cwd: root }).code).toBe(1);
    writeFileSync(join(root, "src/b.py"), 'def two() -> int:\n    return "2"\n');
    const told = hook(root, "src/b.py");
    expect(told).toContain(BLOCKS);
    expect(told).toContain(stopped("src/b.py"));
  },
  120_000,
);

test.skipIf(MYPY === "")(
  "mypy stopped at an old syntax error in the very file the agent edited: its type error there was not checked either",
  () => {
    const root = project();
    expect(cpilot(["check", "--all"], { cwd: root }).code).toBe(1);
    writeFileSync(join(root, "src/old.py"), 'def broken(:\n    pass\n\nfour: int = "4"\n');
    const told = hook(root, "src/old.py");
    expect(told).toContain(BLOCKS);
    expect(told).toContain(stopped("src/old.py"));
  },
  120_000,
);

test.skipIf(MYPY === "")(
  "check --new-only: mypy stopped at an old syntax error before the changed file fails, and says so",
  () => {
    const root = project();
    expect(cpilot(["check", "--all", "--new-only"], { cwd: root }).code).toBe(0);
    writeFileSync(join(root, "src/b.py"), 'def two() -> int:\n    return "2"\n');
    const r = cpilot(["check", "--new-only"], { cwd: root });
    expect(r.stderr).toContain(stopped("src/b.py"));
    expect(r.code).toBe(1);
  },
  120_000,
);

test.skipIf(MYPY === "")(
  "mypy stopped at a module found twice, on no line cpilot reads: the failure is told as printed and blocks, not as errors there before",
  () => {
    const root = committedRepo("cpilot-mypy-twice-", {
      ".gitignore": ".cpilot/\n.mypy_cache/\n",
      "callbacks.config.json": JSON.stringify({
        callbacks: [
          { name: "mypy", pattern: "*.py", run: `${MYPY} --show-column-numbers src`, timeout: 120 },
        ],
      }),
      "src/x/mod.py": "a: int = 1\n",
      "src/y/mod.py": "b: int = 2\n",
      "src/z.py": "c: int = 3\n",
    });
    expect(cpilot(["check", "--all"], { cwd: root }).code).toBe(1);
    writeFileSync(join(root, "src/z.py"), 'c: int = "3"\n');
    const told = hook(root, "src/z.py");
    expect(told).toContain(BLOCKS);
    expect(told).toContain('Duplicate module named "mod"');
    expect(told).toContain("exit 2 (mypy stopped: a blocking error");
    expect(told).not.toContain("there before");
  },
  120_000,
);
