/**
 * Paths are made root-relative once per printed path and repeats dropped in the same pass,
 * with shortcuts for runs of one file; whatever the order the files come in, each
 * diagnostic must get its own file, and exactly the repeats must go.
 */
import { expect, test } from "bun:test";
import { rootRelative } from "../../src/diagnostics/_path.ts";
import { diagnosticKey } from "../../src/diagnostics/key.ts";
import { parseDiagnostics } from "../../src/diagnostics/parse-output.ts";

const base = { root: "/p", cwd: "/p/sub" };
// One file printed four ways, another two ways, one outside the root.
const PRINTED = ["../src/a.py", "/p/src/a.py", "..\\src\\a.py", "b.py", "/p/sub/b.py", "/x/c.py"];

/** A small deterministic generator: the same draws on every machine. */
function draws(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

test("any order of printed paths and repeats: each diagnostic its own file, exactly the repeats dropped", () => {
  for (let seed = 1; seed <= 200; seed++) {
    const next = draws(seed);
    const lines: string[] = [];
    const length = 1 + Math.floor(next() * 40);
    for (let i = 0; i < length; i++) {
      const path = PRINTED[Math.floor(next() * PRINTED.length)] as string;
      const line = 1 + Math.floor(next() * 3);
      const code = `E${Math.floor(next() * 2)}`;
      lines.push(`${path}:${line}:1: ${code} message ${Math.floor(next() * 2)}`);
    }
    const got = parseDiagnostics(lines.join("\n"), { ...base, format: "flake8" });
    // The reference: each line on its own, its path resolved alone, the first of each kept.
    const seen = new Set<string>();
    const expected = lines
      .flatMap((l) => parseDiagnostics(l, { ...base, format: "flake8" }))
      .filter((d) => {
        const key = diagnosticKey(d);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    expect(got).toEqual(expected);
    for (const d of got)
      expect(d.file).toBe(rootRelative(d.file.startsWith("/") ? d.file : `/p/${d.file}`, base));
  }
});
