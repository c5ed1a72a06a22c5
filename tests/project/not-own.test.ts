import { expect, test } from "bun:test";
import { nestedConfigMarkers } from "../../src/engine/nested-configs.ts";
import { ownFiles } from "../../src/project/not-own.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

/** Folders whose names are prefixes of each other's, one of each pair a virtualenv. */
function prefixTwins(): string {
  const root = tempDir("cpilot-own-files-");
  writeFiles(root, {
    "ab/x.py": "",
    "ab/z.py": "",
    "ab/c/d.py": "",
    "abc/pyvenv.cfg": "home = /usr/bin\n",
    "abc/y.py": "",
    "a/b.py": "",
    "a/bc/pyvenv.cfg": "home = /usr/bin\n",
    "a/bc/e.py": "",
    "top.py": "",
  });
  return root;
}

test("each file is judged by its own folder, whatever the order and however alike the names", () => {
  const root = prefixTwins();
  // sorted, and shuffled so that a folder's files are not together and each follows a
  // folder its own name begins with (ab → abc, a → ab, a/b → a/bc)
  const orders = [
    ["a/b.py", "a/bc/e.py", "ab/c/d.py", "ab/x.py", "ab/z.py", "abc/y.py", "top.py"],
    ["ab/x.py", "abc/y.py", "ab/z.py", "a/b.py", "a/bc/e.py", "top.py", "ab/c/d.py", "abc/y.py"],
    ["top.py", "abc/y.py", "ab/x.py", "a/bc/e.py", "a/b.py", "abc/y.py", "ab/c/d.py"],
  ];
  for (const files of orders) {
    const { own, left } = ownFiles(root, files, (f) => f);
    expect(own.sort()).toEqual(
      files.filter((f) => !f.startsWith("abc/") && !f.startsWith("a/bc/")).sort(),
    );
    expect([...left.keys()].sort()).toEqual(["a/bc", "abc"]);
  }
});

test("a nested config counts when the list of tracked files names it, not because it is on disk", () => {
  const root = tempDir("cpilot-own-files-");
  writeFiles(root, {
    "tracked/callbacks.config.json": "{}",
    "tracked/a.ts": "",
    "untracked/callbacks.config.json": "{}",
    "untracked/b.ts": "",
    "plain/callbacks.config.json.bak": "",
    "plain/c.ts": "",
  });
  const tracked = [
    "plain/c.ts",
    "plain/callbacks.config.json.bak",
    "tracked/a.ts",
    "tracked/callbacks.config.json",
    "untracked/b.ts",
  ];
  const files = ["plain/c.ts", "tracked/a.ts", "untracked/b.ts"];
  const { own, left } = ownFiles(root, files, (f) => f, nestedConfigMarkers(root, tracked));
  expect(own).toEqual(["plain/c.ts", "untracked/b.ts"]);
  expect([...left]).toEqual([["tracked", "its own callbacks.config.json judges its files"]]);
});
