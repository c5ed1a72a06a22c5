import { afterEach, beforeEach, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { type ApplyOptions, applyUpdates, createContextSession } from "../../src/context/index.ts";
import { tempDir } from "./_helpers.ts";

let root: string;
let dir: string;
let cleanup: () => void;
let options: ApplyOptions;

beforeEach(() => {
  ({ dir: root, cleanup } = tempDir());
  dir = join(root, ".context");
  mkdirSync(dir);
  options = { contextDir: dir };
});
afterEach(() => cleanup());

const block = (attrs: string, content = "") =>
  `<context-update ${attrs}>\n${content}\n</context-update>\n`;
const read = (name: string) => readFileSync(join(dir, name), "utf8");

test("add creates a missing file (and the context directory); other actions refuse", () => {
  const report = applyUpdates(
    block('file="TASKS.md" action="add" section="Tasks"', "- [ ] First") +
      block('file="NOTES.md" action="update" id="x"', "y"),
    { contextDir: join(root, "fresh", ".context") },
  );
  expect(readFileSync(join(root, "fresh/.context/TASKS.md"), "utf8")).toBe(
    "## Tasks\n\n- [ ] First\n",
  );
  expect(report.results.map((r) => r.ok)).toEqual([true, false]);
  expect(report.results[0]?.diff).toContain("--- /dev/null\n+++ b/TASKS.md");
  expect(report.results[1]?.error).toBe('Cannot update "x" in "NOTES.md": the file does not exist');
  expect(existsSync(join(root, "fresh/.context/NOTES.md"))).toBe(false);
});

test("section not found: created for add, an error with suggestions otherwise", () => {
  writeFileSync(join(dir, "T.md"), "## Tasks\n\n- [ ] a\n");
  const report = applyUpdates(
    block('file="T.md" action="complete" section="Task" id="a"') +
      block('file="T.md" action="add" section="Later"', "- [ ] b"),
    options,
  );
  expect(report.results[0]?.error).toBe(
    'Cannot complete "a" in "T.md": section "Task" does not exist',
  );
  expect(report.results[0]?.candidates).toEqual(["line 1: ## Tasks"]);
  expect(read("T.md")).toBe("## Tasks\n\n- [ ] a\n\n## Later\n\n- [ ] b\n");
});

test("id not found: the error lists the nearest candidates and the file is unchanged", () => {
  const doc = "## Use Bun\n\nx\n\n## Use Biome\n\ny\n\n## Testing\n\nz\n";
  writeFileSync(join(dir, "D.md"), doc);
  const [result] = applyUpdates(block('file="D.md" action="remove" id="Use Bum"'), options).results;
  expect(result?.ok).toBe(false);
  expect(result?.candidates?.[0]).toBe("line 1: ## Use Bun");
  expect(result?.hint).toContain("nearest: line 1: ## Use Bun");
  expect(read("D.md")).toBe(doc);
});

test("parse errors come back with partial results: the good blocks still apply", () => {
  writeFileSync(join(dir, "T.md"), "- [ ] a\n- [ ] b\n");
  const text =
    block('file="T.md" action="complete" id="a"') +
    '<context-update file="T.md" action="complete" id="b">\nnever closed\n' +
    block('file="T.md" action="add"', "- [ ] c");
  const report = applyUpdates(text, options);
  expect(report.parseErrors).toHaveLength(1);
  expect(report.parseErrors[0]?.line).toBe(4);
  expect(report.results.map((r) => r.ok)).toEqual([true, true]);
  expect(read("T.md")).toBe("- [x] a\n- [ ] b\n- [ ] c\n");
});

test("invalid commands are refused with every problem at once", () => {
  const [result] = applyUpdates(block('file="T.txt" action="edit" secton="x"'), options).results;
  expect(result?.ok).toBe(false);
  expect(result?.error).toContain('file "T.txt" is not one of the allowed context files (*.md)');
  expect(result?.error).toContain('action "edit" is not one of add, update, remove, complete');
  expect(result?.error).toContain('attribute "secton" is unknown');
});

test("updates apply in order, later ones seeing earlier ones; touching a block twice warns", () => {
  writeFileSync(join(dir, "D.md"), "## A\n\none\n");
  const report = applyUpdates(
    block('file="D.md" action="update" id="A"', "## A\n\ntwo") +
      block('file="D.md" action="update" id="A"', "## A\n\nthree") +
      block('file="D.md" action="add" section="B"', "- [ ] task") +
      block('file="D.md" action="complete" id="task"'),
    options,
  );
  expect(report.results.every((r) => r.ok)).toBe(true);
  expect(read("D.md")).toBe("## A\n\nthree\n\n## B\n\n- [x] task\n");
  expect(report.results[0]?.warnings).toEqual([]);
  expect(report.results[1]?.warnings).toEqual([
    "this block was also changed by the block at line 1",
  ]);
  expect(report.results[3]?.warnings.join()).toContain("also changed by the block at line 11");
});

test("dry run writes nothing and returns unified diffs", () => {
  writeFileSync(join(dir, "D.md"), "## A\n\none\n");
  const report = applyUpdates(block('file="D.md" action="update" id="one"', "two"), {
    ...options,
    dryRun: true,
  });
  expect(report.results[0]?.diff).toBe(
    "--- a/D.md\n+++ b/D.md\n@@ -1,3 +1,3 @@\n ## A\n \n-one\n+two\n",
  );
  expect(read("D.md")).toBe("## A\n\none\n");
  expect(readdirSync(dir)).toEqual(["D.md"]);
});

test("backup keeps FILE.md.bak of the content before the first write of a session", () => {
  writeFileSync(join(dir, "D.md"), "v1\n");
  writeFileSync(join(dir, "D.md.bak"), "stale\n");
  const session = createContextSession({ ...options, backup: true });
  session.apply(block('file="D.md" action="update" id="v1"', "v2"));
  session.apply(block('file="D.md" action="update" id="v2"', "v3"));
  expect(read("D.md")).toBe("v3\n");
  expect(read("D.md.bak")).toBe("v1\n");
  applyUpdates(block('file="D.md" action="update" id="v3"', "v4"), { ...options, backup: true });
  expect(read("D.md.bak")).toBe("v3\n");
  applyUpdates(block('file="NEW.md" action="add"', "x"), { ...options, backup: true });
  expect(existsSync(join(dir, "NEW.md.bak"))).toBe(false);
});

test("a BOM and CRLF line endings survive on disk", () => {
  const original = "\uFEFF## Tasks\r\n\r\n- [ ] a\r\n- [ ] b\r\n";
  writeFileSync(join(dir, "T.md"), original);
  applyUpdates(
    block('file="T.md" action="complete" id="a"') +
      block('file="T.md" action="add" section="Tasks"', "- [ ] c"),
    options,
  );
  const bytes = readFileSync(join(dir, "T.md"));
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(bytes.toString("utf8")).toBe("\uFEFF## Tasks\r\n\r\n- [x] a\r\n- [ ] b\r\n- [ ] c\r\n");
});

test("a file that is not valid UTF-8 is refused and left alone", () => {
  const bytes = Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]);
  writeFileSync(join(dir, "B.md"), bytes);
  const [result] = applyUpdates(block('file="B.md" action="add"', "x"), options).results;
  expect(result?.error).toBe('Cannot read "B.md": it is not valid UTF-8');
  expect(readFileSync(join(dir, "B.md"))).toEqual(bytes);
});

test("traversal: absolute paths, .., other names and symlinks out of the dir are refused", () => {
  writeFileSync(join(root, "outside.md"), "secret\n");
  writeFileSync(join(dir, "notes.txt"), "txt\n");
  symlinkSync(join(root, "outside.md"), join(dir, "LINK.md"));
  mkdirSync(join(root, "elsewhere"));
  symlinkSync(join(root, "elsewhere"), join(dir, "sub"));
  symlinkSync(join(dir, "notes.txt"), join(dir, "TXT.md"));
  symlinkSync(join(root, "created-outside.md"), join(dir, "DANGLING.md"));
  const attempts = [
    join(root, "outside.md"),
    "../outside.md",
    "a/../../outside.md",
    "LINK.md",
    "notes.txt",
    "D.md.bak",
    ".hidden.md",
    "TXT.md",
    "DANGLING.md",
    "C:\\x.md",
  ];
  const text = attempts.map((file) => block(`file="${file}" action="add"`, "pwned")).join("");
  const report = applyUpdates(text, { ...options, allowedFiles: ["*.md", "sub/*.md"] });
  const subReport = applyUpdates(block('file="sub/x.md" action="add"', "pwned"), {
    ...options,
    allowedFiles: ["*.md", "sub/*.md"],
  });
  for (const result of [...report.results, ...subReport.results]) {
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(
      new RegExp(`^Cannot (use|add) "${result.file.replace(/[\\.]/g, "\\$&")}"`),
    );
  }
  expect(readFileSync(join(root, "outside.md"), "utf8")).toBe("secret\n");
  expect(read("notes.txt")).toBe("txt\n");
  expect(readdirSync(join(root, "elsewhere"))).toEqual([]);
  expect(existsSync(join(root, "created-outside.md"))).toBe(false);
});

test("a symlink to an allowed file inside the dir is written through and stays a link", () => {
  mkdirSync(join(dir, "real"));
  writeFileSync(join(dir, "real/T.md"), "- [ ] a\n");
  symlinkSync("real/T.md", join(dir, "T.md"));
  const report = applyUpdates(block('file="T.md" action="complete" id="a"'), {
    ...options,
    allowedFiles: ["**/*.md"],
  });
  expect(report.results[0]?.ok).toBe(true);
  expect(read("real/T.md")).toBe("- [x] a\n");
  expect(readdirSync(dir).sort()).toEqual(["T.md", "real"]);
  expect(readFileSync(join(dir, "T.md"), "utf8")).toBe("- [x] a\n");
});

test("a directory named like a context file is refused", () => {
  mkdirSync(join(dir, "DIR.md"));
  const [result] = applyUpdates(block('file="DIR.md" action="add"', "x"), options).results;
  expect(result?.error).toBe('Cannot use "DIR.md": it exists but is not a regular file');
});

test("a context folder that leads outside the project is refused when named relative to it", () => {
  const project = join(root, "project");
  const home = join(root, "home-claude");
  mkdirSync(project);
  mkdirSync(home);
  writeFileSync(join(home, "CLAUDE.md"), "# mine\n");
  symlinkSync(home, join(project, ".context"));
  const update = block('file="CLAUDE.md" action="add" section="Notes"', "- planted");
  const refused = applyUpdates(update, {
    contextDir: join(project, ".context"),
    projectRoot: project,
  });
  expect(refused.results.map((r) => r.ok)).toEqual([false]);
  expect(refused.results[0]?.error).toContain("it leads outside the project");
  expect(readFileSync(join(home, "CLAUDE.md"), "utf8")).toBe("# mine\n");
  // a folder inside the project, reached through a symlink, is fine
  mkdirSync(join(project, "docs"));
  const inside = join(root, "project2");
  mkdirSync(inside);
  mkdirSync(join(inside, "docs"));
  symlinkSync("docs", join(inside, ".context"));
  const ok = applyUpdates(update, { contextDir: join(inside, ".context"), projectRoot: inside });
  expect(ok.results.map((r) => r.ok)).toEqual([true]);
});
