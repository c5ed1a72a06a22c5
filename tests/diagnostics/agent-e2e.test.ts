/** What an agent reads when checkers fail: the real binary, real tsc and cargo, real git. */
import { afterEach, expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { contextOf, makeProject, type Project, postBatch } from "../agents/claude/_helpers.ts";
import { cpilot } from "../helpers/binary.ts";

const REPO = join(import.meta.dir, "..", "..");
const TSC = join(REPO, "node_modules", ".bin", "tsc");
const CARGO = spawnSync("sh", ["-c", "command -v cargo"], { encoding: "utf8" }).stdout.trim();

const projects: Project[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) p.remove();
});

function committed(config: unknown, files: Record<string, string>): Project {
  const p = makeProject(config, files);
  projects.push(p);
  execFileSync("git", ["add", "-A"], { cwd: p.dir });
  execFileSync("git", ["commit", "-qm", "start"], { cwd: p.dir });
  return p;
}

/** What the agent is told after a batch writing `file`, from the first failed run on. */
function reasonOf(p: Project, file: string): string {
  const r = p.hook(postBatch([p.path(file)]));
  expect(r.stderr).toBe("");
  const text = contextOf(r.json);
  return text.slice(Math.max(0, text.indexOf("✗")));
}

const TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, noEmit: true },
  include: ["src"],
});

test("tsc: the error the edit brought in full, then the edited file's old ones listed and marked, lines moved", () => {
  const p = committed(
    { callbacks: [{ name: "types", pattern: "*.ts", run: `${TSC} -p .`, timeout: 120 }] },
    {
      "tsconfig.json": TSCONFIG,
      "src/a.ts": 'export const a: number = "old";\nexport const b: boolean = 1;\n',
    },
  );
  // The project as committed, checked once: what HEAD holds is known.
  cpilot(["check", "--all"], { cwd: p.dir });
  writeFileSync(
    p.path("src/a.ts"),
    '// added\nexport const c: string = 5;\nexport const a: number = "old";\nexport const b: boolean = 1;\n',
  );
  const reason = reasonOf(p, "src/a.ts");
  const lines = reason.split("\n");
  expect(lines[0]).toStartWith("✗ 'types' failed on src/a.ts: exit ");
  expect(lines[1]).toBe(
    "  src/a.ts:2:14 error TS2322: Type 'number' is not assignable to type 'string'.",
  );
  expect(lines[2]).toBe("  already there before your edit, in the files you edited:");
  expect(lines[3]).toStartWith("  src/a.ts:3:14 error TS2322: Type 'string' is not assignable");
  expect(lines[4]).toStartWith("  src/a.ts:4:14 error TS2322: Type 'number' is not assignable");

  // The next edit moves every line again: the old ones stay old, the agent's stays new.
  writeFileSync(p.path("src/a.ts"), `// more\n${readText(p, "src/a.ts")}`);
  const again = reasonOf(p, "src/a.ts").split("\n");
  expect(again[1]).toBe(
    "  src/a.ts:3:14 error TS2322: Type 'number' is not assignable to type 'string'.",
  );
  expect(again[2]).toBe("  already there before your edit, in the files you edited:");
  expect(again[3]).toStartWith("  src/a.ts:4:14 error TS2322");
}, 120_000);

test("a run that fails only on what was already there informs the agent; it does not block", () => {
  const p = committed(
    { callbacks: [{ name: "types", pattern: "*.ts", run: `${TSC} -p .`, timeout: 120 }] },
    { "tsconfig.json": TSCONFIG, "src/a.ts": 'export const a: number = "old";\n' },
  );
  cpilot(["check", "--all"], { cwd: p.dir });
  writeFileSync(p.path("src/a.ts"), '// a comment\nexport const a: number = "old";\n');
  const r = p.hook(postBatch([p.path("src/a.ts")]));
  const text = contextOf(r.json);
  expect(text).not.toContain("checks failed after your last edits");
  expect(text).toContain("its 1 diagnostic was already there before your edit:");
  expect(text).toContain("src/a.ts:2:14 error TS2322");
}, 120_000);

test("report: all shows the old ones too", () => {
  const p = committed(
    {
      callbacks: [
        { name: "types", pattern: "*.ts", run: `${TSC} -p .`, timeout: 120, report: "all" },
      ],
    },
    { "tsconfig.json": TSCONFIG, "src/a.ts": 'export const a: number = "old";\n' },
  );
  writeFileSync(
    p.path("src/a.ts"),
    'export const c: string = 5;\nexport const a: number = "old";\n',
  );
  const reason = reasonOf(p, "src/a.ts");
  expect(reason).toContain("src/a.ts:1:14 error TS2322");
  expect(reason).toContain("src/a.ts:2:14 error TS2322");
  expect(reason).not.toContain("already there");
}, 120_000);

test.skipIf(CARGO === "")(
  "cargo check and clippy: the same compile error reaches the agent once",
  () => {
    const cargo = (sub: string) => ({
      name: sub,
      pattern: "*.rs",
      run: `${CARGO} ${sub} --quiet`,
      timeout: 300,
    });
    const p = committed(
      { callbacks: [cargo("check"), cargo("clippy")] },
      {
        "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/lib.rs": "pub fn add(a: i32) -> i32 {\n    a\n}\n",
        ".gitignore": "target\n",
      },
    );
    writeFileSync(p.path("src/lib.rs"), "pub fn add(a: i32) -> i32 {\n    a + y\n}\n");
    const reason = reasonOf(p, "src/lib.rs");
    const shown = reason.split("\n").filter((l) => l.includes("cannot find value `y`"));
    expect(shown).toEqual(["  src/lib.rs:2:9 error E0425: cannot find value `y` in this scope"]);
    expect(reason).toContain("(the same 1 diagnostic as above)");
  },
  300_000,
);

test("a budget in characters: whole diagnostics only, the rest counted", () => {
  const script = `for i in $(seq 1 400); do echo "src/a.ts:$i:1: error: problem number $i is here [p$i]"; done; exit 1`;
  const p = committed(
    { callbacks: [{ name: "lint", pattern: "*.ts", run: script, timeout: 30 }] },
    { "src/README.md": "x\n" },
  );
  writeFileSync(p.path("src/a.ts"), "y\n"); // a new file: nothing in it was there before
  const lines = reasonOf(p, "src/a.ts").split("\n");
  const shown = lines.filter((l) =>
    /^ {2}src\/a\.ts:\d+:1 error p\d+: problem number \d+ is here$/.test(l),
  );
  expect(shown.length).toBeGreaterThan(20);
  expect(shown.length).toBeLessThan(400);
  expect(lines).toContain(
    `  … and ${400 - shown.length} more in the files you edited (see the log)`,
  );
  expect(lines.join("\n").length).toBeLessThan(4000 + 400);
}, 60_000);

test("the raw tail when nothing is understood, or when format is none", () => {
  const noisy = "echo 'npm warn something'; echo 'src/a.ts:3:1: error: real problem [x]'; exit 1";
  const p = committed(
    {
      agent: { tailLines: 2 },
      callbacks: [
        { name: "raw", pattern: "*.ts", run: noisy, timeout: 30, format: "none" },
        {
          name: "vague",
          pattern: "*.ts",
          run: "echo one; echo two; echo three; exit 1",
          timeout: 30,
        },
      ],
    },
    { "src/a.ts": "x\n" },
  );
  writeFileSync(p.path("src/a.ts"), "y\n");
  const reason = reasonOf(p, "src/a.ts");
  expect(reason).toContain("  npm warn something\n  src/a.ts:3:1: error: real problem [x]\n");
  expect(reason).toContain("  … (earlier output is in the log)\n  two\n  three\n");
}, 60_000);

function readText(p: Project, file: string): string {
  return require("node:fs").readFileSync(p.path(file), "utf8");
}
