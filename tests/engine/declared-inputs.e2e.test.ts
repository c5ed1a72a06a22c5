/**
 * A check that declares its `inputs` (the files it reads besides those it is given) is keyed
 * by their content instead of HEAD's tree, so its results outlive a commit elsewhere; a
 * change to an input runs it again, and a loosened rules file never replays a pass. Without
 * `inputs`, a commit still changes every key. Through the compiled binary in real repos.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo, tempDir } from "../helpers/tmp.ts";

/** The banned-words check, counting its runs in a file outside the project. */
function project(extra: Record<string, unknown>) {
  const counter = join(tempDir("cpilot-count-"), "runs");
  const root = committedRepo("cpilot-inputs-", {
    ".gitignore": ".cpilot/\n",
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        {
          name: "banned",
          pattern: "*.src",
          run: `echo x >> ${counter}; ! grep -l -f banned.txt "$@"`,
          timeout: 30,
          ...extra,
        },
      ],
    }),
    "banned.txt": "BAD\n",
    "a.src": "fine\n",
    "notes.md": "one\n",
  });
  return { root, runs: () => (existsSync(counter) ? readFileSync(counter, "utf8").length / 2 : 0) };
}

function commit(root: string, message: string): void {
  execFileSync("git", ["add", "-A"], { cwd: root, stdio: "pipe" });
  execFileSync("git", ["commit", "-qm", message], { cwd: root, stdio: "pipe" });
}

function check(root: string, ...args: string[]) {
  const r = cpilot(["check", ...args], { cwd: root });
  return { code: r.code, out: `${r.stdout}${r.stderr}` };
}

test("with inputs, a commit of an unrelated file keeps the check's record", () => {
  const p = project({ inputs: ["banned.txt"] });
  expect(check(p.root, "a.src").code).toBe(0);
  writeFileSync(join(p.root, "notes.md"), "two\n");
  commit(p.root, "notes");
  const again = check(p.root, "a.src");
  expect(again.code).toBe(0);
  expect(again.out).toContain("from cache");
  expect(p.runs()).toBe(1);
}, 60_000);

test("with inputs, a change to an input runs the check again, committed or not", () => {
  const p = project({ inputs: ["banned.txt"] });
  expect(check(p.root, "a.src").code).toBe(0);
  writeFileSync(join(p.root, "banned.txt"), "fine\n");
  const dirty = check(p.root, "a.src");
  expect(dirty.code).toBe(1);
  expect(dirty.out).not.toContain("from cache");
  commit(p.root, "stricter");
  expect(check(p.root, "a.src").out).toContain("from cache");
  writeFileSync(join(p.root, "banned.txt"), "BAD\n");
  commit(p.root, "back");
  // the content is the first run's again: its pass replays, whatever commit holds it
  expect(check(p.root, "a.src").out).toContain("from cache");
  expect(p.runs()).toBe(2);
}, 60_000);

test("with inputs, a rules file loosened for one run and put back never replays the pass", () => {
  const p = project({ inputs: ["banned.txt"] });
  writeFileSync(join(p.root, "banned.txt"), "NOTHING\n");
  writeFileSync(join(p.root, "b.src"), "BAD\n");
  expect(check(p.root, "b.src").code).toBe(0);
  writeFileSync(join(p.root, "banned.txt"), "BAD\n");
  execFileSync("git", ["add", "b.src"], { cwd: p.root, stdio: "pipe" });
  const staged = check(p.root, "--staged");
  expect(staged.code).toBe(1);
  expect(staged.out).not.toContain("from cache");
}, 60_000);

test("without inputs, a commit of an unrelated file runs the check again", () => {
  const p = project({});
  expect(check(p.root, "a.src").code).toBe(0);
  writeFileSync(join(p.root, "notes.md"), "two\n");
  commit(p.root, "notes");
  const again = check(p.root, "a.src");
  expect(again.code).toBe(0);
  expect(again.out).not.toContain("from cache");
  expect(p.runs()).toBe(2);
}, 60_000);

test("inputs: [] reads nothing else; a bad glob is refused with the rule named", () => {
  const p = project({ inputs: [] });
  expect(check(p.root, "a.src").code).toBe(0);
  writeFileSync(join(p.root, "notes.md"), "two\n");
  commit(p.root, "notes");
  expect(check(p.root, "a.src").out).toContain("from cache");
  const bad = project({ inputs: ["rules/[a-"] });
  const refused = check(bad.root, "a.src");
  expect(refused.code).not.toBe(0);
  expect(refused.out).toContain('Cannot use input "rules/[a-"');
  expect(bad.runs()).toBe(0);
}, 60_000);
