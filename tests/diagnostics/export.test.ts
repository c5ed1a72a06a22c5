/** `cpilot check`'s machine-readable outputs, from the real binary on live tsc output. */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { escapeData, escapeProperty } from "../../src/diagnostics/export-github.ts";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const REPO = join(import.meta.dir, "..", "..");
const TSC = join(REPO, "node_modules", ".bin", "tsc");

/** A git project in a folder of a checkout (`sub/`), with a tsc callback and two errors. */
function project(extraCallbacks: unknown[] = []): { workspace: string; root: string } {
  const workspace = tempDir("cpilot-export-", { git: true });
  const root = join(workspace, "sub");
  mkdirSync(root);
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        { name: "types", pattern: "*.ts", run: `${TSC} -p .`, timeout: 120 },
        ...extraCallbacks,
      ],
    }),
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
    "src/a b.ts": 'export const a: number = "x";\nexport const b: boolean = 1;\n',
  });
  execFileSync("git", ["add", "-A"], { cwd: workspace });
  execFileSync("git", ["commit", "-qm", "start"], { cwd: workspace });
  return { workspace, root };
}

test("check --format sarif prints a SARIF 2.1.0 log the official schema accepts", () => {
  const { root } = project();
  const r = cpilot(["check", "--all", "--format", "sarif"], { cwd: root });
  expect(r.code).toBe(1);
  const log = JSON.parse(r.stdout);
  const schema = JSON.parse(
    readFileSync(join(REPO, "tests", "fixtures", "sarif", "sarif-2.1.0.json"), "utf8"),
  );
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  const valid = validate(log);
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
  // The validator does reject what SARIF forbids.
  expect(validate({ ...log, runs: [{ ...log.runs[0], results: [{ level: "fatal" }] }] })).toBe(
    false,
  );
  const run = log.runs[0];
  expect(run.tool.driver.name).toBe("tsc");
  expect(run.automationDetails.id).toBe("cpilot/types/");
  expect(run.results).toHaveLength(2);
  expect(run.results[0]).toEqual({
    ruleId: "TS2322",
    ruleIndex: 0,
    level: "error",
    message: { text: "Type 'string' is not assignable to type 'number'." },
    locations: [
      {
        physicalLocation: {
          // from the repository's top, where code scanning resolves it
          artifactLocation: { uri: "sub/src/a%20b.ts", uriBaseId: "%SRCROOT%" },
          region: { startLine: 1, startColumn: 14 },
        },
      },
    ],
    // The project is as in HEAD: its errors were there (new or old is relative to HEAD).
    baselineState: "unchanged",
  });
}, 120_000);

test("check --json runs carry their diagnostics", () => {
  const { root } = project();
  const r = cpilot(["check", "--all", "--json"], { cwd: root });
  const doc = JSON.parse(r.stdout);
  expect(doc.runs[0].diagnostics).toEqual([
    {
      file: "src/a b.ts",
      line: 1,
      column: 14,
      severity: "error",
      code: "TS2322",
      message: "Type 'string' is not assignable to type 'number'.",
      tool: "tsc",
      baseline: "unchanged",
      since: "run",
    },
    {
      file: "src/a b.ts",
      line: 2,
      column: 14,
      severity: "error",
      code: "TS2322",
      message: "Type 'number' is not assignable to type 'boolean'.",
      tool: "tsc",
      baseline: "unchanged",
      since: "run",
    },
  ]);
}, 120_000);

test("inside GitHub Actions, check prints annotations on the checkout's paths", () => {
  const { workspace, root } = project([
    {
      name: "odd",
      pattern: "*.ts",
      run: "printf 'src/x,y:z.ts:3:2: warning: 100%% sure\\n'; exit 1",
      timeout: 30,
    },
  ]);
  writeFileSync(join(root, "src", "x,y:z.ts"), "1\n2\n3\n");
  const env = { GITHUB_ACTIONS: "true", GITHUB_WORKSPACE: workspace };
  const r = cpilot(["check", "--all"], { cwd: root, env });
  expect(r.code).toBe(1);
  const lines = r.stdout.trimEnd().split("\n");
  expect(lines).toEqual([
    "::error file=sub/src/a b.ts,line=1,col=14,title=types%3A tsc TS2322::Type 'string' is not assignable to type 'number'.",
    "::error file=sub/src/a b.ts,line=2,col=14,title=types%3A tsc TS2322::Type 'number' is not assignable to type 'boolean'.",
    "::warning file=sub/src/x%2Cy%3Az.ts,line=3,col=2,title=odd%3A compiler::100%25 sure",
  ]);
  // Outside Actions, stdout stays empty.
  expect(cpilot(["check", "--all"], { cwd: root }).stdout).toBe("");
}, 120_000);

test("an output format cpilot does not write is a usage error", () => {
  const { root } = project();
  const r = cpilot(["check", "--all", "--format", "xml"], { cwd: root });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('Cannot use output format "xml": it is not one cpilot writes');
  expect(r.stdout).toBe("");
});

test("workflow command escaping follows GitHub's toolkit", () => {
  expect(escapeData("a%b\r\nc")).toBe("a%25b%0D%0Ac");
  expect(escapeProperty("a:b,c%\n")).toBe("a%3Ab%2Cc%25%0A");
});
