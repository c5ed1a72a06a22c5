import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  decodeBaseline,
  encodeBaseline,
  encodeWith,
  joined,
  knownCleanInBytes,
  type SavedFiles,
} from "../../src/diagnostics/baseline/_binary.ts";
import { compareWithBaseline } from "../../src/diagnostics/baseline/compare.ts";
import type { Diagnostic } from "../../src/model/diagnostic.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const DIAGNOSTIC = [2166136261, 3, 1234, 1];

/** What a save writes, copied into memory of its own, as a read gives it. */
const saved0 = (files: Record<string, number[]>) =>
  encodeBaseline(new Map(Object.entries(files).map(([f, e]) => [f, { e }]))).slice();
const saved = saved0;

const asObject = (files: SavedFiles | null) =>
  files &&
  Object.fromEntries(
    Object.keys(files.table).map((f) => [f, Array.from(files.get(f)?.e ?? [Number.NaN])]),
  );

/** What a save writes over `now`, joined as a read gives it. */
const savedOver = (now: SavedFiles, seen: Record<string, number[]>, max: number) =>
  joined(encodeWith(now, new Map(Object.entries(seen).map(([f, e]) => [f, { e }])), max));

/** Numbers of `count` diagnostics, distinct per `tag`. */
const numbers = (tag: number, count: number) =>
  Array.from({ length: count }, (_, i) => [tag, i + 1, tag + i, i % 2]).flat();

test("a saved baseline reads back as it was: files in their order, numbers exact", () => {
  const files = {
    "z.ts": [],
    "src/ünï cødé.ts": [...DIAGNOSTIC, 7, 2 ** 40 + 1, -1, 0],
    "a.ts": [],
    "/outside/root.c": DIAGNOSTIC,
    "": DIAGNOSTIC, // diagnostics that name no file
  };
  const read = decodeBaseline(saved(files));
  expect(asObject(read)).toEqual(files);
  expect(Object.keys(read?.table ?? {})).toEqual(Object.keys(files));
  expect(asObject(decodeBaseline(saved({})))).toEqual({});
});

test("a run over a few files finds them known clean in the bytes, as decoding would", () => {
  const bytes = saved({ "a.ts": [], "src/b.ts": [], "ü.ts": [], "dirty.ts": DIAGNOSTIC });
  const read = decodeBaseline(bytes);
  const cases: [string[], boolean][] = [
    [["a.ts"], true],
    [["src/b.ts", "a.ts"], true],
    [["ü.ts"], true],
    [["dirty.ts"], false], // has a diagnostic
    [["a.ts", "missing.ts"], false], // not in the baseline: not known clean
    [["b.ts"], false], // only the end of a known name
    [["a"], false], // only the start of one
  ];
  for (const [files, clean] of cases) {
    expect(knownCleanInBytes(bytes, files)).toBe(clean);
    expect(files.every((f) => read?.get(f)?.e.length === 0)).toBe(clean);
  }
});

test("a path holding NUL is not saved, so it cannot be mistaken for others", () => {
  const bytes = saved({ "a.ts\0cb.ts": [], "c.ts": [] });
  expect(asObject(decodeBaseline(bytes))).toEqual({ "c.ts": [] });
  expect(knownCleanInBytes(bytes, ["b.ts"])).toBe(false);
});

test("torn, foreign or other-version bytes read as no baseline", () => {
  const good = saved({ "a.ts": DIAGNOSTIC, "b.ts": [] });
  const changed = (at: number, value: number) => {
    const copy = good.slice();
    copy[at] = value;
    return copy;
  };
  const words = new Uint32Array(good.buffer);
  const tableAt = 24;
  /** `good` with another table of the same length (padded with spaces). */
  const withTable = (text: string) => {
    const copy = good.slice();
    copy.set(new TextEncoder().encode(text.padEnd(words[2] as number, " ")), tableAt);
    return copy;
  };
  // The header's checks: the quick look for files known clean makes them too.
  const torn: [string, Uint8Array][] = [
    ["empty", new Uint8Array(0)],
    ["torn", good.slice(0, good.length - 8)],
    ["longer", new Uint8Array([...good, 0, 0, 0, 0, 0, 0, 0, 0])],
    ["foreign", new TextEncoder().encode('{"version":2,"files":{"a.ts":{"e":[]}}}')],
    ["another version", changed(4, (words[1] as number) + 1)],
    ["another byte order", changed(0, good[3] as number)],
    ["more diagnostics than the file holds", changed(16, 2)],
    ["more in use than it holds", changed(12, 9)],
  ];
  for (const [what, bytes] of torn)
    expect(`${what}: ${knownCleanInBytes(bytes, ["b.ts"])}`).toBe(`${what}: false`);
  const bad: [string, Uint8Array][] = [
    ...torn,
    ["a table that is not JSON", changed(tableAt, 0x78 /* x */)],
    ["a table that is a list", withTable("[0]")],
    ["a table that is null", withTable("null")],
  ];
  for (const [what, bytes] of bad)
    expect(`${what}: ${decodeBaseline(bytes)}`).toBe(`${what}: null`);
  // Bytes at an offset a Float64Array cannot view (reads never give such): no baseline either.
  const odd = new Uint8Array(good.length + 1);
  odd.set(good, 1);
  expect(decodeBaseline(odd.subarray(1))).toBeNull();
});

const diag = (line: number, message: string): Diagnostic => ({
  file: "a.txt",
  line,
  column: 1,
  severity: "error",
  code: "E1",
  message,
  tool: "compiler",
});

const baselineDir = (root: string) => join(root, ".cpilot", "baseline");

test("a torn baseline file is read as none and replaced by a whole one", () => {
  const root = tempDir("cpilot-baseline-torn-");
  writeFiles(root, { "a.txt": "one\ntwo\n" });
  const input = { root, callback: "lint", files: ["a.txt"], edited: new Set<string>() };
  compareWithBaseline({ ...input, diagnostics: [diag(1, "there")], fromCheck: true });
  const path = join(baselineDir(root), "lint.bin");
  const whole = readFileSync(path);
  writeFileSync(path, whole.subarray(0, whole.length - 3));
  // Nothing to compare with and not edited: not known either way, and the file is whole again.
  const torn = compareWithBaseline({ ...input, diagnostics: [diag(1, "there")], fromCheck: false });
  expect(torn.map((d) => `${d.baseline}/${d.since}`)).toEqual(["unchanged/unverified"]);
  expect(decodeBaseline(new Uint8Array(readFileSync(path)).slice())).not.toBeNull();
});

test("a save records the files it saw last, keeps the others as they were, and drops the oldest past the bound", () => {
  let saved = decodeBaseline(saved0({ "a.ts": numbers(1, 3), "b.ts": [], "c.ts": numbers(2, 2) }));
  expect(saved).not.toBeNull();
  saved = decodeBaseline(savedOver(saved as SavedFiles, { "a.ts": numbers(3, 1) }, 100));
  expect(asObject(saved)).toEqual({ "b.ts": [], "c.ts": numbers(2, 2), "a.ts": numbers(3, 1) });
  // Past the bound (a file and each diagnostic count one), the files seen longest ago go.
  const bounded = decodeBaseline(savedOver(saved as SavedFiles, { "d.ts": numbers(4, 2) }, 7));
  expect(asObject(bounded)).toEqual({ "a.ts": numbers(3, 1), "d.ts": numbers(4, 2) });
  // A run alone past the bound keeps its last files.
  const alone = decodeBaseline(
    savedOver(saved as SavedFiles, { "x.ts": numbers(5, 3), "y.ts": [] }, 3),
  );
  expect(asObject(alone)).toEqual({ "y.ts": [] });
});

test("a file saved again and again keeps the baseline bounded: unused runs are packed away", () => {
  let saved = decodeBaseline(saved0({ "keep.ts": numbers(9, 2), "clean.ts": [] })) as SavedFiles;
  const sizes: number[] = [];
  for (let round = 0; round < 12; round++) {
    const bytes = savedOver(saved, { "dense.ts": numbers(round, 700) }, 20_000);
    sizes.push(bytes.length);
    saved = decodeBaseline(bytes) as SavedFiles;
    expect(asObject(saved)).toEqual({
      "keep.ts": numbers(9, 2),
      "clean.ts": [],
      "dense.ts": numbers(round, 700),
    });
  }
  // 702 diagnostics in use: never more than their size plus ~1,000 unused, and packed again.
  expect(Math.max(...sizes)).toBeLessThan(8 * 4 * (702 + 1000 + 700) + 1000);
  expect(Math.min(...sizes.slice(2))).toBeLessThan(8 * 4 * 1500);
});

test("a file named like an object's own properties is a file like any other", () => {
  // As JSON.parse makes them: own members, not the object's prototype.
  const files = JSON.parse(
    `{"__proto__":${JSON.stringify(numbers(1, 1))},"constructor":[],"toString":${JSON.stringify(numbers(2, 1))}}`,
  );
  const read = decodeBaseline(saved0(files));
  expect(Object.keys(read?.table ?? {})).toEqual(["__proto__", "constructor", "toString"]);
  expect(read?.get("__proto__")?.e).toEqual(new Float64Array(numbers(1, 1)));
  expect(read?.get("constructor")?.e.length).toBe(0);
  expect(read?.get("hasOwnProperty")).toBeUndefined();
  const again = decodeBaseline(
    joined(encodeWith(read as SavedFiles, new Map([["__proto__", { e: [] }]]), 100)),
  );
  expect(again?.get("__proto__")?.e.length).toBe(0);
  expect(
    knownCleanInBytes(encodeBaseline(new Map([["__proto__", { e: [] }]])), ["__proto__"]),
  ).toBe(true);
});

test("a table value that is not where entries lie reads as never seen, and a save drops it", () => {
  const good = saved0({ "a.ts": numbers(1, 2), "b.ts": [] });
  const text = new TextDecoder().decode(
    good.subarray(24, 24 + (new Uint32Array(good.buffer)[2] as number)),
  );
  const bad = text.replace('"a.ts":[0,2]', '"a.ts":[1,9]');
  expect(bad).not.toBe(text);
  const copy = good.slice();
  copy.set(new TextEncoder().encode(bad), 24);
  const read = decodeBaseline(copy) as SavedFiles;
  expect(read.get("a.ts")).toBeUndefined();
  expect(read.get("b.ts")?.e.length).toBe(0);
});
