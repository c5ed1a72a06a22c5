/**
 * What the real-CLI e2e tests proved, per agent and property, for the matrix in
 * docs/agents.md: each test marks its cell failed when it starts and passed when its last
 * assertion held, in tests/.results/agent-matrix.json. `bun scripts/agent-matrix.ts`
 * renders the table from that file (see the script for how it is regenerated).
 */
import { test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const MATRIX_FILE = join(import.meta.dir, "..", ".results", "agent-matrix.json");

export type MatrixCell =
  | "failure"
  | "resync"
  | "refusal"
  | "runWithHooks"
  | "runWithoutHooks"
  | "stopGate";

export interface MatrixEntry {
  readonly version: string;
  readonly cells: Partial<Record<MatrixCell, { ok: boolean; at: string }>>;
}

function read(): Record<string, MatrixEntry> {
  try {
    return JSON.parse(readFileSync(MATRIX_FILE, "utf8")) as Record<string, MatrixEntry>;
  } catch {
    return {};
  }
}

/** Record one cell; call with false first, then true once the test's assertions held. */
export function recordCell(agent: string, version: string, cell: MatrixCell, ok: boolean): void {
  const all = read();
  const entry = all[agent] ?? { version, cells: {} };
  all[agent] = {
    version,
    cells: { ...entry.cells, [cell]: { ok, at: new Date().toISOString() } },
  };
  mkdirSync(dirname(MATRIX_FILE), { recursive: true });
  writeFileSync(MATRIX_FILE, `${JSON.stringify(all, null, 2)}\n`);
}

/** Mark `cells` failed now and return a function that marks them passed (call it last). */
export function proving(agent: string, version: string, cells: MatrixCell[]): () => void {
  for (const cell of cells) recordCell(agent, version, cell, false);
  return () => {
    for (const cell of cells) recordCell(agent, version, cell, true);
  };
}

/** A bun test whose passing proves `cells` of `agent`'s row in the matrix. */
export function provedTest(
  agent: { readonly name: string; readonly version: string },
  cells: MatrixCell[],
  name: string,
  fn: () => Promise<void>,
  timeoutMs?: number,
): void {
  test(
    name,
    async () => {
      const done = proving(agent.name, agent.version, cells);
      await fn();
      done();
    },
    timeoutMs,
  );
}
