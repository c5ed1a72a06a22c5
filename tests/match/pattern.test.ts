import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import ignore from "ignore";
import { compileSimpleRules } from "../../src/match/_simple-rules.ts";
import { compilePatterns, validatePatterns } from "../../src/match/pattern.ts";
import { gitIgnores } from "./_git-oracle.ts";

/** Rule lists, the paths we expect them to match (`yes`) and not (`no`). git has the last word. */
const TABLE: { rules: string[]; yes: string[]; no: string[] }[] = [
  // basename rules match at any depth, and match directories too
  {
    rules: ["*.rs"],
    yes: ["main.rs", "src/deep/nested/lib.rs", ".rs", "t/x.rs/readme.md"],
    no: ["src/lib.rsx"],
  },
  {
    rules: ["Makefile"],
    yes: ["Makefile", "sub/Makefile", "Makefile/x"],
    no: ["Makefile.am", "sub/GNUMakefile"],
  },
  { rules: ["foo"], yes: ["foo/bar/baz.js", "a/foo"], no: ["food", "a/xfoo"] },
  { rules: ["*"], yes: [".dotfile", "a/b/c"], no: [] },
  { rules: [".*"], yes: [".env", "a/.hidden/x"], no: ["a.env"] },
  { rules: [".env*"], yes: ["config/.env.local", ".env"], no: ["x.env"] },
  {
    rules: ["Dockerfile*"],
    yes: ["Dockerfile.dev", "x/Dockerfile", "Dockerfile/y"],
    no: ["x/my.Dockerfile"],
  },
  { rules: ["*.TXT"], yes: ["a.TXT"], no: ["a.txt"] },
  // a slash at the start or in the middle anchors at the root
  { rules: ["src/*.ts"], yes: ["src/a.ts"], no: ["src/x/a.ts", "lib/src/a.ts"] },
  { rules: ["/Makefile"], yes: ["Makefile"], no: ["sub/Makefile"] },
  { rules: ["/*.js"], yes: ["x.js"], no: ["a/x.js"] },
  { rules: ["a/*/c"], yes: ["a/b/c"], no: ["a/b/d/c", "x/a/b/c"] },
  {
    rules: ["src/gen"],
    yes: ["src/gen", "src/gen/a.ts"],
    no: ["x/src/gen/a.ts", "src/generated.ts"],
  },
  // directory rules
  {
    rules: ["dist/"],
    yes: ["dist/a.js", "pkg/dist/deep/a.js"],
    no: ["dist", "distro/a.js", "x/dist"],
  },
  { rules: ["/dist/"], yes: ["dist/a.js"], no: ["pkg/dist/a.js"] },
  { rules: ["a/b/"], yes: ["a/b/c.txt"], no: ["x/a/b/c.txt", "a/b"] },
  { rules: ["*/"], yes: ["a/b"], no: ["a"] },
  { rules: ["node_modules"], yes: ["node_modules/.bin/tsc", "pkg/node_modules/x.js"], no: [] },
  // ** at the start, middle and end
  { rules: ["**/foo"], yes: ["foo", "x/y/foo", "x/foo/z"], no: ["xfoo"] },
  { rules: ["**/foo/bar"], yes: ["x/foo/bar", "foo/bar"], no: ["foo/x/bar"] },
  {
    rules: ["**/node_modules/"],
    yes: ["packages/a/node_modules/x/index.js"],
    no: ["node_modules"],
  },
  { rules: ["**/*.ts"], yes: ["a/b/c.ts", "c.ts"], no: ["c.tsx"] },
  { rules: ["a/**/b"], yes: ["a/b", "a/x/y/b", "a/b/c"], no: ["x/a/b", "a/xb"] },
  {
    rules: ["src/**/*.ts"],
    yes: ["src/a.ts", "src/x/y/a.ts", "src/new\nline/a.ts"],
    no: ["lib/a.ts", "x/src/a.ts"],
  },
  { rules: ["src/**/gen"], yes: ["src/gen", "src/a/gen/x.ts"], no: ["gen", "src/agen"] },
  {
    rules: ["src/**/gen*", "!src/**/*.md"],
    yes: ["src/a/generated.ts", "src/gen/x"],
    no: ["src/a/gen.md", "src/gen.md/x", "x/gen.ts"],
  },
  {
    rules: ["src/*.ts", "!/*.js", "/*.js"],
    yes: ["src/a.ts", "x.js", "x.js/y"],
    no: ["src/a/b.ts", "a/x.js"],
  },
  { rules: ["docs/**"], yes: ["docs/x/y.md", "docs/a"], no: ["docs", "sub/docs/a.md"] },
  { rules: ["foo/**/"], yes: ["foo/x/y"], no: ["foo/y"] },
  { rules: ["**"], yes: ["a", "a/b"], no: [] },
  // negation: order matters, last matching rule wins
  { rules: ["*.ts", "!*.test.ts"], yes: ["src/a.ts"], no: ["src/a.test.ts"] },
  { rules: ["!*.test.ts", "*.ts"], yes: ["src/a.test.ts"], no: ["src/a.js"] },
  { rules: ["*.ts", "!a.ts", "a.ts"], yes: ["a.ts", "x/a.ts"], no: [] },
  {
    rules: ["*.min.js", "!vendor/**/*.min.js"],
    yes: ["a.min.js", "x/vendor/b.min.js"],
    no: ["vendor/a/b.min.js"],
  },
  { rules: ["!important"], yes: [], no: ["important"] },
  // nothing below an excluded directory can be re-included
  { rules: ["build/", "!build/keep.txt"], yes: ["build/keep.txt", "build/x"], no: [] },
  {
    rules: ["build/*", "!build/keep.txt"],
    yes: ["build/other.txt"],
    no: ["build/keep.txt", "build/keep.txt/x"],
  },
  {
    rules: ["build/**", "!build/**/", "!*.txt"],
    yes: ["build/keep/x.js"],
    no: ["build/keep/x.txt"],
  },
  { rules: ["*", "!*.md"], yes: ["docs/guide.md", "a.ts"], no: ["README.md"] },
  { rules: ["*", "!*/", "!*.md"], yes: ["docs/a.ts"], no: ["docs/guide.md"] },
  { rules: ["*.ts", "!test/"], yes: ["test/a.ts", "a.ts"], no: [] },
  { rules: ["dir/", "!dir/"], yes: [], no: ["dir/a"] },
  { rules: ["a/", "!a/b/"], yes: ["a/b/c"], no: [] },
  {
    rules: ["*.log", "!important.log", "logs/"],
    yes: ["logs/important.log", "x.log"],
    no: ["important.log"],
  },
  // spaces, unicode, hostile names
  { rules: ["my file.txt"], yes: ["docs/my file.txt"], no: ["docs/my  file.txt"] },
  { rules: ["docs/my dir/"], yes: ["docs/my dir/a b.md"], no: ["docs/my dirt/a.md"] },
  { rules: [" lead"], yes: [" lead"], no: ["lead"] },
  { rules: ["trail  "], yes: ["trail"], no: ["trail  "] },
  { rules: ["trail\\ "], yes: ["trail "], no: ["trail"] },
  { rules: ["日本語/*.md"], yes: ["日本語/読む.md"], no: ["x/日本語/読む.md"] },
  { rules: ["*.md"], yes: ["ünï/cödé.md"], no: ["ünï/cödé.mdx"] },
  { rules: ["café"], yes: ["x/café"], no: ["x/cafe"] },
  { rules: ["new?line"], yes: ["new\nline"], no: ["new/line"] },
  { rules: ["*.sh"], yes: ["$(touch pwned).sh", "a\nb.sh", "q\"uo'te.sh"], no: ["a.sh\nb"] },
  // character classes and brackets
  { rules: ["[abc].txt"], yes: ["b.txt"], no: ["d.txt"] },
  { rules: ["[!abc].txt"], yes: ["d.txt"], no: ["a.txt"] },
  { rules: ["[^abc].txt"], yes: ["d.txt"], no: ["a.txt"] },
  { rules: ["file[0-9].log"], yes: ["logs/file7.log"], no: ["file77.log"] },
  { rules: ["[[:digit:]]*.csv"], yes: ["1data.csv"], no: ["data.csv"] },
  { rules: ["*.[ch]"], yes: ["x.h", "x.c"], no: ["x.o"] },
  { rules: ["[]]x"], yes: ["]x"], no: ["x"] },
  { rules: ["src/[a-"], yes: [], no: ["src/[a-", "src/a"] },
  { rules: ["[[:nope:]]"], yes: [], no: ["n", "[[:nope:]]"] },
  // escapes: \! \# \* \[
  { rules: ["\\!important"], yes: ["!important"], no: ["important"] },
  { rules: ["\\#hash"], yes: ["#hash"], no: ["hash"] },
  { rules: ["#hash"], yes: [], no: ["#hash"] },
  { rules: ["\\*"], yes: ["*"], no: ["a"] },
  { rules: ["\\[x\\]"], yes: ["[x]"], no: ["x"] },
  { rules: ["a?c"], yes: ["abc"], no: ["a/c", "ac"] },
  { rules: ["trailing\\"], yes: [], no: ["trailing", "trailing\\"] },
  // rules that never match anything
  { rules: ["./a", "../b", "a//c"], yes: [], no: ["a", "b", "a/c"] },
  { rules: [""], yes: [], no: ["a"] },
];

const rows = TABLE.flatMap(({ rules, yes, no }) => [
  ...yes.map((path) => ({ rules, path, expected: true })),
  ...no.map((path) => ({ rules, path, expected: false })),
]);
const groups = TABLE.map(({ rules, yes, no }) => ({ rules, paths: [...yes, ...no] }));
const gitVerdicts = gitIgnores(groups);
const gitByRow = TABLE.flatMap((_, i) => gitVerdicts[i]!);

describe("compilePatterns agrees with git check-ignore", () => {
  test("the table is big enough", () => {
    expect(rows.length).toBeGreaterThanOrEqual(60);
  });

  test.each(
    rows.map((row, i) => [JSON.stringify(row.rules), JSON.stringify(row.path), i] as const),
  )("%s on %s", (_rules, _path, i) => {
    const { rules, path, expected } = rows[i]!;
    const git = gitByRow[i]!;
    expect({ path, git }).toEqual({ path, git: expected });
    expect({ path, ours: compilePatterns(rules).matches(path) }).toEqual({ path, ours: git });
    const simple = compileSimpleRules(rules);
    if (simple !== null) expect({ path, fastPath: simple(path) }).toEqual({ path, fastPath: git });
  });

  test("the fast path serves the common forms", () => {
    const fast = [
      ["*.ts"],
      ["Makefile", "dist/"],
      ["/src/gen/", "docs/**", "Dockerfile*"],
      ["*", "!*.md"],
    ];
    for (const rules of [
      ...fast,
      ["src/**/*.ts", "!**/*.test.ts"],
      ["src/*.ts", "/*.js"],
      ["a/**/b"],
    ]) {
      expect(compileSimpleRules(rules)).not.toBeNull();
    }
    for (const rules of [
      ["[ab].ts"],
      ["\\!x"],
      ["a/*/c"],
      ["**/a/b"],
      ["a*b"],
      ["x "],
      ["foo/**/"],
    ]) {
      expect(compileSimpleRules(rules)).toBeNull();
    }
  });
});

describe("fast path agrees with the ignore engine on random simple rules", () => {
  const seg = fc.constantFrom("a", "b", "ab", ".a", "a.ts", "x y", "é");
  const rule = fc
    .tuple(
      fc.boolean(),
      fc.constantFrom("name", "suffix", "prefix", "path", "below"),
      fc.array(seg, { minLength: 1, maxLength: 3 }),
      fc.boolean(),
      fc.boolean(),
    )
    .map(([neg, kind, segs, dir, slash]) => {
      const body =
        kind === "name"
          ? segs[0]!
          : kind === "suffix"
            ? `*${segs[0]!.slice(1)}`
            : kind === "prefix"
              ? `${segs[0]!.slice(0, 1)}*`
              : kind === "path"
                ? `${slash ? "/" : ""}${segs.join("/")}${segs.length === 1 ? "/" : ""}`
                : `${segs.join("/")}/**`;
      return `${neg ? "!" : ""}${body}${dir && kind !== "below" && !body.endsWith("/") ? "/" : ""}`;
    });
  const path = fc.array(seg, { minLength: 1, maxLength: 4 }).map((s) => s.join("/"));

  test("1000 random rule lists", () => {
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 4 }),
        fc.array(path, { maxLength: 8 }),
        (rules, paths) => {
          const simple = compileSimpleRules(rules);
          if (simple === null) return;
          const engine = ignore({ ignorecase: false }).add(rules);
          for (const p of paths)
            expect({ rules, p, fast: simple(p) }).toEqual({ rules, p, fast: engine.ignores(p) });
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("PathMatcher.matches", () => {
  test("a path that is not below the root never matches", () => {
    const m = compilePatterns(["*"]);
    for (const p of ["", ".", "..", "/etc/passwd", "./a", "../a"])
      expect({ p, m: m.matches(p) }).toEqual({ p, m: false });
    const slow = compilePatterns(["[a-z]*"]);
    for (const p of ["", "/abs", "../a"])
      expect({ p, m: slow.matches(p) }).toEqual({ p, m: false });
  });

  test("a single string is one rule", () => {
    expect(compilePatterns("*.ts").matches("a/b.ts")).toBe(true);
  });

  test("matching 20,000 paths is fast", () => {
    const paths = Array.from(
      { length: 20_000 },
      (_, i) => `packages/p${i % 40}/src/d${i % 97}/file${i}.${["ts", "js", "md"][i % 3]}`,
    );
    for (const rules of [["*.ts"], ["*.ts", "!*.test.ts"], ["src/**/*.ts", "!**/*.d.ts"]]) {
      const m = compilePatterns(rules);
      const t0 = performance.now();
      for (const p of paths) m.matches(p);
      const ms = performance.now() - t0;
      expect({ rules, ms: ms < 250 }).toEqual({ rules, ms: true }); // generous: CI machines vary
    }
  });
});

describe("validatePatterns", () => {
  test("accepts ordinary rule lists", () => {
    for (const rules of [
      ["*.ts", "!*.test.ts"],
      "src/**",
      ["/dist/", "\\#x", "\\!y", "[[:digit:]]", "[]]", "a\\ "],
    ]) {
      expect({ rules, problems: validatePatterns(rules) }).toEqual({ rules, problems: [] });
    }
  });

  test.each([
    ["", '"": it is blank'],
    ["   ", '"   ": it is blank'],
    ["!", '"!": it is only "!"'],
    ["#x", '"#x": it is a comment'],
    ["src/[a-", '"src/[a-": it has an unclosed character class "[a-"'],
    ["[!]", '"[!]": it has an unclosed character class'],
    ["[[:word:]]", '"[[:word:]]": it names an unknown character class "[:word:]"'],
    ["x\\", '"x\\\\": it ends with a lone backslash'],
    ["../a", '"../a": it has a "." or ".." segment'],
    ["./src/*.ts", '"./src/*.ts": it has a "." or ".." segment'],
    ["a//b", '"a//b": it has an empty segment'],
    ["a\0b", '"a\\u0000b": it contains a NUL byte'],
    ["a\nb", '"a\\nb": it contains a line break'],
    ["C:\\src\\*.ts", '"C:\\\\src\\\\*.ts": it is an absolute file-system path'],
  ])("rejects %j", (rule, message) => {
    const problems = validatePatterns([rule]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toStartWith(`Cannot use pattern ${message}`);
  });

  test("rejects a rule that starts with the project root, when given", () => {
    expect(validatePatterns(["/home/me/proj/src/*.ts"], { root: "/home/me/proj" })[0]).toContain(
      "absolute file-system path",
    );
    expect(validatePatterns(["/home/me/proj/src/*.ts"])).toEqual([]);
  });

  test("rejects an empty list and a list of only negations", () => {
    expect(validatePatterns([])[0]).toStartWith("Cannot use pattern list []: it is empty");
    expect(validatePatterns(["!*.md"])[0]).toContain('only "!" rules');
  });

  test("reports every problem at once", () => {
    expect(validatePatterns(["ok.ts", "", "[x", "!"])).toHaveLength(3);
  });
});
