/** What `cpilot check` prints under a failed run in a terminal, from the real binary and live tsc. */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const REPO = join(import.meta.dir, "..", "..");
const TSC = join(REPO, "node_modules", ".bin", "tsc");

function project(
  callbacks: unknown[],
  files: Record<string, string>,
  settings: Record<string, unknown> = {},
): string {
  const root = tempDir("cpilot-check-terminal-", { git: true });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({ callbacks, ...settings }),
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
    ...files,
  });
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", "start"], { cwd: root });
  return root;
}

/** The lines printed under the run of `callback` (indented), up to the next run's line. */
function under(stderr: string, callback: string): string[] {
  const lines = stderr.split("\n");
  const at = lines.findIndex((l) => l.startsWith("✗ ") && l.includes(` ${callback} (`));
  expect(at).toBeGreaterThanOrEqual(0);
  const out: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (!line.startsWith("    ")) break;
    out.push(line.slice(4));
  }
  return out;
}

test("a failed run shows its diagnostics, not the raw output; a second callback's same ones once", () => {
  const noisy = `echo "npm warn something unrelated"; ${TSC} -p . --pretty true`;
  const root = project(
    [
      { name: "types", pattern: "*.ts", run: `${TSC} -p . --pretty true`, timeout: 120 },
      { name: "types-again", pattern: "*.ts", run: noisy, timeout: 120, after: ["types"] },
    ],
    { "src/a.ts": 'export const a: number = "x";\nexport const b: boolean = 1;\n' },
  );
  const r = cpilot(["check", "--all"], { cwd: root });
  expect(r.code).toBe(1);
  const first = under(r.stderr, "types");
  expect(first.slice(0, 2)).toEqual([
    "src/a.ts:1:14 error TS2322: Type 'string' is not assignable to type 'number'.",
    "src/a.ts:2:14 error TS2322: Type 'number' is not assignable to type 'boolean'.",
  ]);
  const id = /full log: cpilot logs (\S+)/.exec(first.at(-1) ?? "")?.[1];
  expect(first.at(-1)).toBe(`full log: cpilot logs ${id}`);
  expect(first).toHaveLength(3); // no code frames, no "Found 2 errors" tail
  const second = under(r.stderr, "types-again");
  expect(second[0]).toBe("(the same 2 diagnostics as above)");
  expect(r.stderr).not.toContain("npm warn");
  expect(second.at(-1)).toMatch(/^full log: cpilot logs \S+$/);
}, 120_000);

test("many diagnostics: whole ones within the budget, then a count", () => {
  const lines = Array.from({ length: 300 }, (_, i) => `export const v${i}: number = "x";`);
  const root = project([{ name: "types", pattern: "*.ts", run: `${TSC} -p .`, timeout: 120 }], {
    "src/many.ts": `${lines.join("\n")}\n`,
  });
  const r = cpilot(["check", "--all"], { cwd: root });
  expect(r.code).toBe(1);
  const body = under(r.stderr, "types");
  const shown = body.filter((l) => l.startsWith("src/many.ts:"));
  expect(shown.length).toBeGreaterThan(5);
  expect(shown.length).toBeLessThan(300);
  for (const [i, line] of shown.entries()) {
    expect(line).toBe(
      `src/many.ts:${i + 1}:14 error TS2322: Type 'string' is not assignable to type 'number'.`,
    );
  }
  expect(body).toContain(`… and ${300 - shown.length} more in the checked files (see the log)`);
  expect(body.at(-1)).toMatch(/^full log: cpilot logs \S+$/);
}, 120_000);

test("output with nothing to parse: its last lines, as many as agent.tailLines says (15 by default)", () => {
  const script = 'for i in $(seq 1 40); do echo "plain line $i"; done; exit 3';
  const callbacks = [{ name: "odd", pattern: "*.txt", run: script, timeout: 60 }];
  for (const [settings, count] of [
    [{}, 15],
    [{ agent: { tailLines: 4 } }, 4],
  ] as const) {
    const root = project(callbacks, { "a.txt": "x\n" }, settings);
    const r = cpilot(["check", "--all"], { cwd: root });
    expect(r.code).toBe(1);
    const body = under(r.stderr, "odd");
    expect(body[0]).toBe("… (earlier output is in the log)");
    expect(body.slice(1, -1)).toEqual(
      Array.from({ length: count }, (_, i) => `plain line ${40 - count + i + 1}`),
    );
    expect(body.at(-1)).toMatch(/^full log: cpilot logs \S+$/);
  }
}, 120_000);
