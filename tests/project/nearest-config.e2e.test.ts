import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

/** A root config and a package with its own; each records (config, file) to a log outside. */
function monorepo(): { root: string; seen: string } {
  const root = tempDir("cpilot-nearest-", { git: true });
  const seen = join(tempDir("cpilot-nearest-seen-"), "seen.txt");
  writeFileSync(seen, "");
  const rec = (who: string) => ({
    name: `${who}-rec`,
    pattern: "*.txt",
    timeout: 30,
    run: `for f in "$@"; do echo "${who} $f" >> '${seen}'; done`,
  });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({ callbacks: [rec("root")] }),
    "packages/a/callbacks.config.json": JSON.stringify({ callbacks: [rec("pkg")] }),
    "top.txt": "t\n",
    "packages/a/x.txt": "x\n",
    "packages/b/y.txt": "y\n",
  });
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", "init"], { cwd: root });
  return { root, seen };
}

/** `cpilot hook claude` for a Write of `file` by an agent started at `root`. */
const hookWrite = (root: string, file: string) =>
  cpilot(["hook", "claude"], {
    cwd: root,
    input: JSON.stringify({
      session_id: "s1",
      cwd: root,
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: join(root, file), content: "x" },
      tool_response: { type: "update", filePath: join(root, file) },
      tool_use_id: "toolu_1",
    }),
  });

const lines = (seen: string) =>
  readFileSync(seen, "utf8").trim().split("\n").filter(Boolean).sort();

test("check --all from the root: a package with its own config is judged by it, the rest by the root's", () => {
  const { root, seen } = monorepo();
  const r = cpilot(["check", "--all"], { cwd: root, env: { CI: "" } });
  expect(r.code).toBe(0);
  expect(lines(seen)).toEqual(["pkg x.txt", "root packages/b/y.txt", "root top.txt"]);
  expect(r.stderr).toContain(
    "packages/a/ left out: its own callbacks.config.json judges its files",
  );
  expect(r.stderr).toContain("cpilot: packages/a/ with its own config");
});

test("check --all: a package's config checks its files whether or not the root's has a check that runs", () => {
  for (const rootCallbacks of [
    [], // no active callback: the root's engine never looks at the folders
    [{ name: "md", pattern: "*.md", timeout: 30, run: "true" }], // active, matching nothing
  ]) {
    const { root, seen } = monorepo();
    writeFiles(root, { "callbacks.config.json": JSON.stringify({ callbacks: rootCallbacks }) });
    const r = cpilot(["check", "--all"], { cwd: root, env: { CI: "" } });
    expect(r.code).toBe(0);
    expect(lines(seen)).toEqual(["pkg x.txt"]);
    expect(r.stderr).toContain("cpilot: packages/a/ with its own config");
  }
});

test("an agent started at the root that writes in the package: the package's config decides", () => {
  const { root, seen } = monorepo();
  const hook = (file: string) => hookWrite(root, file);
  expect(hook("packages/a/x.txt").code).toBe(0);
  expect(lines(seen)).toEqual(["pkg x.txt"]);
  expect(hook("top.txt").code).toBe(0);
  expect(lines(seen)).toEqual(["pkg x.txt", "root top.txt"]);
});

test("a nested config git does not track (one an agent could write through its shell) changes nothing", () => {
  const { root, seen } = monorepo();
  writeFiles(root, {
    "packages/b/callbacks.config.json": JSON.stringify({ callbacks: [] }),
  });
  const r = cpilot(["check", "--all"], { cwd: root, env: { CI: "" } });
  expect(r.code).toBe(0);
  expect(lines(seen)).toContain("root packages/b/y.txt");
  expect(r.stderr).not.toContain("packages/b/ left out");
  expect(hookWrite(root, "packages/b/y.txt").code).toBe(0);
  expect(lines(seen).filter((l) => l === "root packages/b/y.txt")).toHaveLength(2);
});

test("--json and SARIF carry the packages' checks too, each run naming the config that judged it", () => {
  const { root, seen } = monorepo();
  const json = cpilot(["check", "--all", "--json"], { cwd: root, env: { CI: "" } });
  expect(json.code).toBe(0);
  expect(lines(seen)).toEqual(["pkg x.txt", "root packages/b/y.txt", "root top.txt"]);
  const doc = JSON.parse(json.stdout) as {
    ok: boolean;
    config: string;
    runs: { callback: string; config: string; files: string[] }[];
  };
  expect(doc.ok).toBe(true);
  expect(doc.config).toBe("callbacks.config.json");
  expect(doc.runs.map((r) => [r.config, r.callback, r.files])).toEqual([
    ["callbacks.config.json", "root-rec", ["packages/b/y.txt", "top.txt"]],
    // files named from where the check started, as its config is
    ["packages/a/callbacks.config.json", "pkg-rec", ["packages/a/x.txt"]],
  ]);
  const sarif = cpilot(["check", "--all", "--format", "sarif"], { cwd: root, env: { CI: "" } });
  expect(sarif.code).toBe(0);
  const log = JSON.parse(sarif.stdout) as {
    runs: { automationDetails: { id: string }; properties: { cpilotConfig: string } }[];
  };
  // still a log the official SARIF 2.1.0 schema accepts, with the packages' runs in it
  const schema = JSON.parse(
    readFileSync(join(import.meta.dir, "..", "fixtures", "sarif", "sarif-2.1.0.json"), "utf8"),
  );
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  validate(log);
  expect(validate.errors ?? []).toEqual([]);
  expect(log.runs.map((r) => [r.properties.cpilotConfig, r.automationDetails.id])).toEqual([
    ["callbacks.config.json", "cpilot/root-rec/"],
    ["packages/a/callbacks.config.json", "cpilot/pkg-rec/"],
  ]);
});

/** `cpilot hook claude` for a Write of `file` (root-relative) by an agent started in `cwd`. */
const hookFrom = (root: string, cwd: string, event: "PreToolUse" | "PostToolUse", file: string) =>
  cpilot(["hook", "claude"], {
    cwd: join(root, cwd),
    input: JSON.stringify({
      session_id: "s1",
      cwd: join(root, cwd),
      hook_event_name: event,
      tool_name: "Write",
      tool_input: { file_path: join(root, file), content: "x" },
      ...(event === "PostToolUse"
        ? { tool_response: { type: "update", filePath: join(root, file) }, tool_use_id: "toolu_1" }
        : {}),
    }),
  });

test("an agent started in a package that writes in a sibling: the root's config, tracked in the same repository, judges it", () => {
  const { root, seen } = monorepo();
  const pre = hookFrom(root, "packages/a", "PreToolUse", "packages/b/y.txt");
  expect(pre.code).toBe(0);
  expect(pre.stdout).not.toContain("outside the project root");
  expect(hookFrom(root, "packages/a", "PostToolUse", "packages/b/y.txt").code).toBe(0);
  expect(lines(seen)).toEqual(["root packages/b/y.txt"]);
});

test("a config in another repository beside the package, or one git does not track, decides nothing: the write is outside the package's root", () => {
  const { root, seen } = monorepo();
  const other = join(root, "vendor/other");
  writeFiles(other, { "callbacks.config.json": JSON.stringify({ callbacks: [] }), "z.txt": "z\n" });
  execFileSync("git", ["init", "-q"], { cwd: other });
  execFileSync("git", ["add", "-A"], { cwd: other });
  execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "x"], {
    cwd: other,
  });
  writeFiles(root, { "packages/c/callbacks.config.json": JSON.stringify({ callbacks: [] }) });
  for (const file of ["vendor/other/z.txt", "packages/c/w.txt"]) {
    const pre = hookFrom(root, "packages/a", "PreToolUse", file);
    expect(`${pre.stdout}${pre.stderr}`).toContain("outside the project root");
  }
  expect(lines(seen)).toEqual([]);
});

test("a hook call reads only the edited file's nearest config: 30 sibling packages whose configs do not even parse change nothing", () => {
  const { root, seen } = monorepo();
  const siblings: Record<string, string> = {};
  for (let i = 0; i < 30; i++) {
    siblings[`packages/s${i}/callbacks.config.json`] = "{ not json";
    siblings[`packages/s${i}/z.txt`] = "z\n";
  }
  writeFiles(root, siblings);
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", "siblings"], { cwd: root });
  for (const file of ["packages/a/x.txt", "top.txt"]) {
    const r = hookWrite(root, file);
    expect({ code: r.code, out: r.stdout, err: r.stderr }).toEqual({ code: 0, out: "", err: "" });
  }
  expect(lines(seen)).toEqual(["pkg x.txt", "root top.txt"]);
  // an edit in a sibling is judged by its own config, which cannot be read: said
  const broken = hookWrite(root, "packages/s3/z.txt");
  expect(`${broken.stdout}${broken.stderr}`).toContain("packages/s3/callbacks.config.json");
});
