import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { containPath, isInside, physicalPath } from "../../src/util/contained-path.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "cpilot-contain-")));
const root = join(base, "proj");
const outside = join(base, "outside");
mkdirSync(join(root, "src"), { recursive: true });
mkdirSync(join(outside, "dir"), { recursive: true });
writeFileSync(join(outside, "secret.txt"), "x");
symlinkSync(outside, join(root, "out-dir"));
symlinkSync(join(outside, "secret.txt"), join(root, "out-file"));
symlinkSync(join(outside, "missing.txt"), join(root, "dangling"));
symlinkSync(join(outside, "dir"), join(root, "deep-link"));
symlinkSync("src", join(root, "in-link"));
symlinkSync("loop-b", join(root, "loop-a"));
symlinkSync("loop-a", join(root, "loop-b"));
symlinkSync(root, join(base, "root-link"));

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("containPath", () => {
  test.each([
    ["src/a.ts", "src/a.ts"],
    ["./src/../src/b.ts", "src/b.ts"],
    ["new/dir/file.ts", "new/dir/file.ts"],
    ["in-link/c.ts", "src/c.ts"],
    [join(root, "src/d.ts"), "src/d.ts"],
  ])("%s stays inside", (path, rel) => {
    const result = containPath(root, path);
    expect(result).toMatchObject({ ok: true, relative: rel });
  });

  test.each([
    ["..", "outside the project root"],
    ["../outside/x", "outside the project root"],
    ["/etc/passwd", "outside the project root"],
    ["src/../../x", "outside the project root"],
    ["out-dir/secret.txt", "symlink"],
    ["out-file", "symlink"],
    ["dangling", "symlink"],
    ["out-dir/new/file", "symlink"],
    // the kernel applies `..` after following deep-link: outside/dir/.. is outside
    ["deep-link/../secret.txt", "symlink"],
    ["loop-a/x", "loop"],
    ["a\0b", "NUL"],
  ])("%s is refused", (path, why) => {
    const result = containPath(root, path);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(why);
  });

  test("a root reached through a symlink still contains its files", () => {
    const viaLink = join(base, "root-link");
    expect(containPath(viaLink, "src/a.ts")).toMatchObject({ ok: true, relative: "src/a.ts" });
    expect(containPath(viaLink, join(root, "src/a.ts"))).toMatchObject({ ok: true });
    expect(containPath(viaLink, "../outside/x").ok).toBe(false);
  });
});

test("isInside compares whole segments", () => {
  expect(isInside("/a/b", "/a/b")).toBe(true);
  expect(isInside("/a/b", "/a/b/c")).toBe(true);
  expect(isInside("/a/b", "/a/bc")).toBe(false);
  expect(isInside("/a/b", "/a")).toBe(false);
});

test("physicalPath follows a dangling symlink to where the file would be created", () => {
  expect(physicalPath(join(root, "dangling"))).toBe(join(outside, "missing.txt"));
  expect(physicalPath(join(root, "loop-a"))).toBeNull();
});

test("asWritten: where the path exactly as written lands, `..` after a followed link", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "cpilot-written-")));
  mkdirSync(join(root, ".git", "hooks"), { recursive: true });
  symlinkSync(join(root, ".git", "hooks"), join(root, "hk"));
  const c = containPath(root, "hk/../hooks/pre-commit");
  expect(c).toMatchObject({
    ok: true,
    lexical: "hooks/pre-commit",
    asWritten: ".git/hooks/pre-commit",
  });
  rmSync(root, { recursive: true, force: true });
});
