/**
 * No import cycles between files, and no import from a lower layer up into a higher one
 * (the order is LAYERS in .dependency-cruiser.cjs), type-only imports included.
 * dependency-cruiser reads the imports; this test only compares what it finds with the
 * known violations below. The list is a ratchet: a violation not in it fails, and so does
 * a listed one that no longer exists, so the list only ever shrinks. Every other rule there
 * (an unlayered folder, a file outside its folder importing a private `_file`) has no list.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");

/**
 * Imports that break the layer order today, as "from -> to"; none are left. One that comes
 * back must be listed here with why, until its type or function moves where it belongs.
 */
const KNOWN_VIOLATIONS: string[] = [];

/** File-level cycles today, each as its files from the alphabetically first, " > " between. */
const KNOWN_CYCLES: string[] = [];

interface Violation {
  readonly rule: { readonly name: string };
  readonly from: string;
  readonly to: string;
  readonly cycle?: readonly ({ readonly name: string } | string)[];
}

/** A cycle written the same way whichever of its files dependency-cruiser starts from. */
function cycleKey(from: string, cycle: readonly ({ readonly name: string } | string)[]): string {
  const files = [from, ...cycle.map((step) => (typeof step === "string" ? step : step.name))];
  const ring = files.slice(0, -1); // the last step is `from` again
  const start = ring.indexOf([...ring].sort()[0] ?? from);
  return [...ring.slice(start), ...ring.slice(0, start)].join(" > ");
}

function cruise(): Violation[] {
  const run = spawnSync(
    join(ROOT, "node_modules/.bin/depcruise"),
    ["src", "main.ts", "--config", ".dependency-cruiser.cjs", "--output-type", "json"],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.stdout.trim() === "") throw new Error(`depcruise printed nothing:\n${run.stderr}`);
  const result = JSON.parse(run.stdout) as {
    summary: { violations: Violation[]; totalCruised: number };
  };
  // A cruise that found almost nothing means the parser did not read TypeScript.
  expect(result.summary.totalCruised).toBeGreaterThan(100);
  return result.summary.violations;
}

test("no new import cycles or upward imports; none of the known ones has gone unnoticed", () => {
  const violations = cruise();
  const cycles = new Set<string>();
  const upward = new Set<string>();
  const other: string[] = [];
  for (const v of violations) {
    if (v.rule.name === "no-circular" && v.cycle) cycles.add(cycleKey(v.from, v.cycle));
    else if (v.rule.name.startsWith("layer:")) upward.add(`${v.from} -> ${v.to}`);
    else other.push(`${v.rule.name}: ${v.from} -> ${v.to}`);
  }
  expect({
    "new cycles": [...cycles].filter((c) => !KNOWN_CYCLES.includes(c)).sort(),
    "new upward imports (see LAYERS in .dependency-cruiser.cjs)": [...upward]
      .filter((u) => !KNOWN_VIOLATIONS.includes(u))
      .sort(),
    "other rules broken": other.sort(),
    "listed but gone (delete them from the lists in this test)": [
      ...KNOWN_CYCLES.filter((c) => !cycles.has(c)),
      ...KNOWN_VIOLATIONS.filter((u) => !upward.has(u)),
    ],
  }).toEqual({
    "new cycles": [],
    "new upward imports (see LAYERS in .dependency-cruiser.cjs)": [],
    "other rules broken": [],
    "listed but gone (delete them from the lists in this test)": [],
  });
}, 120_000);
