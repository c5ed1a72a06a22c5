import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LocalStore, resultsDir } from "../../src/cache/local-store.ts";
import type { CheckRecord } from "../../src/cache/store.ts";
import { tempDir } from "../helpers/tmp.ts";

const KEY = "a".repeat(40);

function record(read: Record<string, string>): CheckRecord {
  return {
    v: 1,
    key: KEY,
    callback: "lint",
    status: "failed",
    exitCode: 1,
    durationMs: 300,
    summary: "1 error\nsecond line",
    tail: ['a.ts:1 "quoted"\nnext', "read"],
    diagnostics: [
      {
        file: "a.ts",
        line: 1,
        column: 1,
        severity: "error",
        code: "E1",
        message: 'a "read" with\nnewlines',
        tool: "lint",
      },
    ],
    read,
    stoppedEarly: false,
    changed: [],
    at: 1,
  };
}

function stored(root: string): string {
  return join(resultsDir(root) as string, `${KEY}.json`);
}

test("a record comes back as it was put, its read map included", () => {
  const root = tempDir("cpilot-local-store-", { git: true });
  const read = { "a.ts": "1".repeat(40), "dir/b c.ts": "2".repeat(40) };
  expect(new LocalStore(root).putSync(KEY, record(read))).toBe(true);
  const back = new LocalStore(root).getSync(KEY);
  expect(back).toEqual(record(read));
  expect(JSON.parse(JSON.stringify(back))).toEqual(record(read));
  // the read map is kept on a line of its own, after every other field
  const lines = readFileSync(stored(root), "utf8").split("\n");
  expect(JSON.parse(lines[1] as string)).toEqual(read);
});

test("a record of one JSON object, as written before, is still read", () => {
  const root = tempDir("cpilot-local-store-", { git: true });
  const old = record({ "a.ts": "1".repeat(40) });
  new LocalStore(root).putSync(KEY, old);
  writeFileSync(stored(root), JSON.stringify(old));
  expect(new LocalStore(root).getSync(KEY)).toEqual(old);
});

test("a read map that is torn or holds a non-id reads as empty: no file is taken as found clean", () => {
  const root = tempDir("cpilot-local-store-", { git: true });
  new LocalStore(root).putSync(KEY, record({ "a.ts": "1".repeat(40) }));
  const head = readFileSync(stored(root), "utf8").split("\n")[0];
  for (const bad of ['{"a.ts":', '{"a.ts":7}', "[]", ""]) {
    writeFileSync(stored(root), `${head}\n${bad}\n`);
    const back = new LocalStore(root).getSync(KEY);
    expect(back?.summary).toBe("1 error\nsecond line");
    expect(back?.read).toEqual({});
  }
});

test("a first line that is not a record, or a record of another key, is no record", () => {
  const root = tempDir("cpilot-local-store-", { git: true });
  new LocalStore(root).putSync(KEY, record({}));
  const [head, read] = readFileSync(stored(root), "utf8").split("\n");
  const other = JSON.stringify({ ...JSON.parse(head as string), key: "b".repeat(40) });
  for (const bad of [`${head?.slice(0, -1)}\n${read}\n`, `${other}\n${read}\n`, "\n{}\n"]) {
    writeFileSync(stored(root), bad);
    expect(new LocalStore(root).getSync(KEY)).toBeUndefined();
  }
});
