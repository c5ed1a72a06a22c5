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

/** Each agent's npm package, pinned in devDependencies: the CLI the e2e tests run. */
const PACKAGES: Record<string, string> = {
  claude: "@anthropic-ai/claude-code",
  codex: "@openai/codex",
  copilot: "@github/copilot",
  gemini: "@google/gemini-cli",
  opencode: "opencode-ai",
  qwen: "@qwen-code/qwen-code",
};

/**
 * The version of `agent`'s CLI installed in node_modules (what the test ran), else
 * `claimed`: the table names the version tested even when a test's own label lags a pin.
 */
export function testedVersion(agent: string, claimed: string): string {
  const pkg = PACKAGES[agent];
  if (pkg === undefined) return claimed;
  try {
    const path = join(import.meta.dir, "..", "..", "node_modules", pkg, "package.json");
    const { version } = JSON.parse(readFileSync(path, "utf8")) as { version?: unknown };
    return typeof version === "string" ? version : claimed;
  } catch {
    return claimed;
  }
}

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
export function recordCell(agent: string, claimed: string, cell: MatrixCell, ok: boolean): void {
  const version = testedVersion(agent, claimed);
  const all = read();
  // Cells proven with another version say nothing about this one.
  const entry = all[agent]?.version === version ? all[agent] : { version, cells: {} };
  all[agent] = {
    version,
    cells: { ...entry?.cells, [cell]: { ok, at: new Date().toISOString() } },
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
