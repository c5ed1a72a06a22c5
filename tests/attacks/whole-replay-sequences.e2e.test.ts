/**
 * Sequences of changes, each followed by `check --all` three times (the third may be a whole
 * replay), compared with a run that uses no cache at all (CPILOT_CACHE=0): the same exit code
 * and the same verdicts (in any order: runs end in their own time), whatever came before. Seeded, so a failure names its steps.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import {
  keepingTimes,
  plain,
  type Replayed,
  replayedProject,
  rewriteKeepingStat,
  verdicts,
} from "./_whole-replay.ts";

const CONFIG = JSON.stringify({
  callbacks: [
    { name: "words", pattern: "*.txt", run: '! grep -l BAD "$@"', timeout: 10 },
    { name: "notes", pattern: "*.md", run: "! grep -rl --include=*.md BAD .", timeout: 10 },
    { name: "lock", pattern: "*.txt", run: "! grep -qs BAD package-lock.json", timeout: 10 },
    {
      name: "modes",
      pattern: "*.md",
      run: "! find . -name '*.md' -not -path './.git/*' -perm -u+x | grep .",
      timeout: 10,
    },
  ],
});

const FILES = {
  ".gitignore": "package-lock.json\npyvenv.cfg\n",
  "callbacks.config.json": CONFIG,
  "package-lock.json": '{"v":"ok1"}\n',
  "a.txt": "ok1\n",
  "lib/b.txt": "ok1\n",
  "r.md": "x\n",
};

type Step = readonly [name: string, change: (p: Replayed) => void];

/** Changes that keep sizes and times where they can, so only content and git tell them apart. */
const STEPS: readonly Step[] = [
  ["a.txt bad", (p) => rewriteKeepingStat(p.path("a.txt"), "BAD\n")],
  ["a.txt ok", (p) => rewriteKeepingStat(p.path("a.txt"), "ok1\n")],
  ["lib/b.txt bad", (p) => rewriteKeepingStat(p.path("lib/b.txt"), "BAD\n")],
  ["lib/b.txt ok", (p) => rewriteKeepingStat(p.path("lib/b.txt"), "ok1\n")],
  ["new.md bad", (p) => writeFileSync(p.path("new.md"), "BAD\n")],
  ["new.md gone", (p) => rmSync(p.path("new.md"), { force: true })],
  ["lock bad", (p) => rewriteKeepingStat(p.path("package-lock.json"), '{"v":"BAD"}\n')],
  ["lock ok", (p) => rewriteKeepingStat(p.path("package-lock.json"), '{"v":"ok1"}\n')],
  ["r.md +x", (p) => keepingTimes(p.path("r.md"), () => chmodSync(p.path("r.md"), 0o755))],
  ["r.md -x", (p) => keepingTimes(p.path("r.md"), () => chmodSync(p.path("r.md"), 0o644))],
  [
    "lib a virtualenv",
    (p) => keepingTimes(p.path("lib"), () => writeFileSync(p.path("lib/pyvenv.cfg"), "x\n")),
  ],
  [
    "lib not a virtualenv",
    (p) =>
      keepingTimes(p.path("lib"), () => {
        if (existsSync(p.path("lib/pyvenv.cfg"))) unlinkSync(p.path("lib/pyvenv.cfg"));
      }),
  ],
  ["words off", (p) => expect(p.check(["disable", "words"]).code).toBe(0)],
  ["words on", (p) => expect(p.check(["enable", "words"]).code).toBe(0)],
  [
    "commit",
    (p) => {
      p.git("add", "-A");
      p.git("commit", "-qm", "step", "--allow-empty");
    },
  ],
  [
    "back a commit",
    (p) => {
      if (p.git("rev-list", "--count", "HEAD").trim() !== "1") p.git("checkout", "-q", "HEAD~1");
    },
  ],
];

/** A small seeded generator (mulberry32): the same seed, the same steps. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("a whole replay answers as a run without any cache", () => {
  for (const seed of [2, 3, 4]) {
    test(`seed ${seed}: 12 changes, each checked three times and against CPILOT_CACHE=0`, () => {
      const p = replayedProject(FILES);
      const next = random(seed);
      const done: string[] = [];
      let wholeReplays = 0;
      for (let i = 0; i < 12; i++) {
        const [name, change] = STEPS[Math.floor(next() * STEPS.length)] as Step;
        change(p);
        done.push(name);
        const real = p.check(undefined, { env: { CPILOT_CACHE: "0" } });
        for (const attempt of [1, 2, 3]) {
          const r = p.check();
          if (plain(r.text).includes("whole check replayed")) wholeReplays++;
          const said = { steps: done, attempt, code: r.code, verdicts: verdicts(r.text).sort() };
          expect(said).toEqual({
            steps: done,
            attempt,
            code: real.code,
            verdicts: verdicts(real.text).sort(),
          });
        }
      }
      if (process.env.CPILOT_TEST_WHOLE_REPLAY === "1") expect(wholeReplays).toBeGreaterThan(0);
    }, 180_000);
  }
});
