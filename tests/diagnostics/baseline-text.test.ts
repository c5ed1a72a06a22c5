import { expect, test } from "bun:test";
import {
  entryCount,
  fileEntries,
  knownCleanInText,
  parseBaseline,
} from "../../src/diagnostics/baseline/store.ts";

/** What updateBaseline saves: per file, four numbers a diagnostic. */
const saved = (files: Record<string, number[]>) =>
  JSON.stringify({
    version: 2,
    files: Object.fromEntries(Object.entries(files).map(([f, e]) => [f, { e }])),
  });

const DIAGNOSTIC = [2166136261, 3, 1234, 1];

test("a run over a few files finds them known clean in the saved text, as parsing would", () => {
  const text = saved({ "a.ts": [], "src/b.ts": [], 'q"uote.ts': [], "dirty.ts": DIAGNOSTIC });
  const cases: [string[], boolean][] = [
    [["a.ts"], true],
    [["src/b.ts", "a.ts"], true],
    [['q"uote.ts'], true],
    [["dirty.ts"], false], // has a diagnostic
    [["a.ts", "missing.ts"], false], // not in the baseline: not known clean
    [["b.ts"], false], // only the end of a known name
  ];
  const parsed = parseBaseline(text);
  for (const [files, clean] of cases) {
    expect(knownCleanInText(text, files)).toBe(clean);
    expect(files.every((f) => fileEntries(parsed[f]) !== null && entryCount(parsed[f]) === 0)).toBe(
      clean,
    );
  }
});

test("a name hidden inside another key is not found; another version is not read", () => {
  // Its JSON key holds `"src/a.ts":{"e":[]}` behind an escaped quote.
  const text = saved({ 'x"src/a.ts":{"e":[]}': [] });
  expect(knownCleanInText(text, ["src/a.ts"])).toBe(false);
  expect(knownCleanInText('{"version":1,"files":{"a.ts":[]}}', ["a.ts"])).toBe(false);
  expect(parseBaseline('{"version":1,"files":{"a.ts":[]}}')).toEqual({});
});
