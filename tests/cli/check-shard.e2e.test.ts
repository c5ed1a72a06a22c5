/**
 * `cpilot check --shard I/N` with the built binary: the shards of one check run every file
 * once between them, and `check --merge` joins their --json or SARIF outputs, refusing
 * shards that do not add up to the whole.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const FILES = Array.from({ length: 13 }, (_, i) => `src/f${String(i).padStart(2, "0")}.ts`);

/** Each run appends the files it was given to seen.log; f03.ts holds an error. */
const CONFIG = JSON.stringify({
  callbacks: [
    {
      name: "lint",
      pattern: "src/*.ts",
      per: "file",
      timeout: 30,
      run: 'for f in "$@"; do echo "$f" >> "$CP_PROJECT_ROOT/../seen.log"; done; if grep -q "^BAD" "$1"; then echo "$1:1:1: error: a bad line"; exit 1; fi',
    },
    {
      name: "all",
      pattern: "src/*.ts",
      timeout: 30,
      run: 'for f in "$@"; do echo "all $f" >> "$CP_PROJECT_ROOT/../seen.log"; done',
    },
  ],
});

function project(): string {
  const dir = tempDir("cpilot-shard-");
  const root = join(dir, "repo");
  writeFiles(root, {
    "callbacks.config.json": CONFIG,
    ...Object.fromEntries(FILES.map((f) => [f, f.endsWith("f03.ts") ? "BAD\n" : "ok\n"])),
  });
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root });
  execFileSync("git", ["add", "-A"], { cwd: root }); // --all checks what git tracks
  return root;
}

function shards(root: string, count: number, extra: string[] = []) {
  return Array.from({ length: count }, (_, i) => {
    const r = cpilot(["check", "--all", "--shard", `${i + 1}/${count}`, ...extra], { cwd: root });
    const out = join(root, "..", `shard-${i + 1}.out`);
    writeFileSync(out, r.stdout);
    return { ...r, out };
  });
}

test("three shards run every file once between them; their --json merge into the whole check", () => {
  const root = project();
  const runs = shards(root, 3, ["--json"]);
  const seen = readFileSync(join(root, "..", "seen.log"), "utf8")
    .trim()
    .split("\n");
  expect(seen.filter((l) => !l.startsWith("all ")).sort()).toEqual(FILES);
  expect(
    seen
      .filter((l) => l.startsWith("all "))
      .map((l) => l.slice(4))
      .sort(),
  ).toEqual(FILES);
  const docs = runs.map((r) => JSON.parse(r.stdout));
  // the config file is one of --all's files too: 14, split 5, 5, 4
  expect(docs.map((d) => d.shard.files.length)).toEqual([5, 5, 4]);
  // only the shard holding f03.ts fails
  expect(runs.map((r) => r.code).filter((c) => c === 1)).toHaveLength(1);

  const merged = cpilot(["check", "--merge", ...runs.map((r) => r.out)], { cwd: root });
  expect(merged.stderr).toBe("");
  expect(merged.code).toBe(0);
  const doc = JSON.parse(merged.stdout);
  expect(doc.ok).toBe(false);
  expect(doc.shard).toEqual({ count: 3, of: 14, split: docs[0].shard.split });
  const lint = doc.runs.filter((r: { callback: string }) => r.callback === "lint");
  expect(lint.flatMap((r: { files: string[] }) => r.files).sort()).toEqual(FILES);
  expect(doc.runs.flatMap((r: { diagnostics: unknown[] }) => r.diagnostics)).toHaveLength(1);
});

test("the merged --json balances the next split by the durations it recorded", () => {
  const root = project();
  const first = shards(root, 2, ["--json"]);
  const merged = cpilot(["check", "--merge", ...first.map((r) => r.out)], { cwd: root });
  const durations = join(root, "..", "durations.json");
  writeFileSync(durations, merged.stdout);
  const next = shards(root, 2, ["--json", "--durations", durations]);
  const docs = next.map((r) => JSON.parse(r.stdout));
  expect(docs[0].shard.split).toBe(docs[1].shard.split);
  expect([...docs[0].shard.files, ...docs[1].shard.files].sort()).toEqual([
    "callbacks.config.json",
    ...FILES,
  ]);
  // no durations file yet (a pipeline's first run): split by name, said
  const none = cpilot(
    ["check", "--all", "--shard", "1/2", "--durations", join(root, "..", "nope.json")],
    {
      cwd: root,
    },
  );
  expect(none.stderr).toContain("no durations in");
});

test("SARIF shards merge into one run per callback", () => {
  const root = project();
  const runs = shards(root, 3, ["--format", "sarif"]);
  const merged = cpilot(["check", "--merge", ...runs.map((r) => r.out)], { cwd: root });
  expect(merged.code).toBe(0);
  const log = JSON.parse(merged.stdout);
  expect(log.version).toBe("2.1.0");
  expect(
    log.runs.map((r: { automationDetails: { id: string } }) => r.automationDetails.id).sort(),
  ).toEqual(["cpilot/all/", "cpilot/lint/"]);
  const lint = log.runs.find(
    (r: { automationDetails: { id: string } }) => r.automationDetails.id === "cpilot/lint/",
  );
  expect(lint.results).toHaveLength(1);
  expect(lint.invocations).toEqual([{ executionSuccessful: false }]);
});

test("a merge is refused when a shard is missing, given twice, or split otherwise", () => {
  const root = project();
  const runs = shards(root, 3, ["--json"]);
  const merge = (...files: string[]) => cpilot(["check", "--merge", ...files], { cwd: root });
  const missing = merge(runs[0]!.out, runs[1]!.out);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain("shard 3/3 missing");
  const twice = merge(runs[0]!.out, runs[1]!.out, runs[1]!.out);
  expect(twice.code).toBe(2);
  expect(twice.stderr).toContain("shard 2/3 is given twice");
  // one shard of a split made with other durations
  const durations = join(root, "..", "d.json");
  writeFileSync(durations, JSON.stringify({ runs: [{ files: [FILES[0]], durationMs: 5000 }] }));
  const other = cpilot(["check", "--all", "--shard", "3/3", "--json", "--durations", durations], {
    cwd: root,
  });
  const otherOut = join(root, "..", "other.out");
  writeFileSync(otherOut, other.stdout);
  const mixed = merge(runs[0]!.out, runs[1]!.out, otherOut);
  expect(mixed.code).toBe(2);
  expect(mixed.stderr).toContain("they split the files differently");
  const plain = join(root, "..", "plain.out");
  writeFileSync(plain, cpilot(["check", "--all", "--json"], { cwd: root }).stdout);
  expect(merge(plain).stderr).toContain("it is not the output of a --shard check");
});

test("--shard is refused with --staged, and a bad I/N says what it wants", () => {
  const root = project();
  expect(cpilot(["check", "--staged", "--shard", "1/2"], { cwd: root }).stderr).toContain(
    "Cannot combine --shard and --staged",
  );
  const bad = cpilot(["check", "--all", "--shard", "3/2"], { cwd: root });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('Cannot check shard "3/2"');
});
