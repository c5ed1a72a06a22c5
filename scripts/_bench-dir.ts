// Where a benchmark builds its project: a fresh folder below `--dir` when given, else below
// node_modules/.cache/cpilot-bench in this checkout, where a project of the user's would
// live. Not the system temp folder by default: on the machine these numbers come from,
// creating a file in /tmp took ~1 ms (40 times what it took anywhere else on the same
// disk), and cpilot writes its run state as small files. Each run prints what creating a
// file costs in both places, so the choice is on the record.
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  realpathSync,
  rmSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** A fresh real folder for one benchmark run. */
export function benchDir(prefix: string, dir: string | undefined): string {
  const base = resolve(
    dir ?? join(import.meta.dir, "..", "node_modules", ".cache", "cpilot-bench"),
  );
  mkdirSync(base, { recursive: true });
  return realpathSync(mkdtempSync(join(base, prefix)));
}

/** Median microseconds to create, write and close a small file in `dir` (100 files). */
export function createCostUs(dir: string): number {
  const probe = mkdtempSync(join(dir, "create-probe-"));
  const times: number[] = [];
  try {
    for (let i = 0; i < 100; i++) {
      const t = performance.now();
      const fd = openSync(join(probe, `f${i}`), "wx");
      writeSync(fd, "x");
      closeSync(fd);
      times.push((performance.now() - t) * 1000);
    }
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
  times.sort((a, b) => a - b);
  return times[50] ?? 0;
}

/** One line for a report: what creating a file costs here and in the system temp folder. */
export function createCostLine(dir: string): string {
  return `creating a file: ${createCostUs(dir).toFixed(0)} us in the bench folder (${dir}), ${createCostUs(tmpdir()).toFixed(0)} us in ${tmpdir()}`;
}
