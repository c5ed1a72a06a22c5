import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { LISTING, parseIndexListing } from "../../src/cache/index-listing.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const git = (root: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd: root, encoding: "utf8" });

test("the index's files: no submodule, nothing inside .cpilot/, a name that only begins like them kept", () => {
  const root = tempDir("cpilot-index-listing-", { git: true });
  writeFiles(root, {
    "a.ts": "a\n",
    ".cpilot/runs/x.json": "{}\n",
    ".cpilotrc": "kept\n",
    "160000.ts": "a name like the submodule's mode\n",
    "tool.sh": "#!/bin/sh\n",
  });
  git(root, "add", "-f", "a.ts", ".cpilot/runs/x.json", ".cpilotrc", "160000.ts", "tool.sh");
  git(root, "update-index", "--chmod=+x", "tool.sh");
  const commit = "0123456789abcdef0123456789abcdef01234567";
  git(root, "update-index", "--add", "--cacheinfo", `160000,${commit},sub`);
  const listing = parseIndexListing(git(root, ...LISTING));
  expect([...listing.files].sort()).toEqual([".cpilotrc", "160000.ts", "a.ts", "tool.sh"]);
  // every entry keeps its id, the submodule's commit and the state file's included
  expect(listing.ids.get("sub")).toBe(commit);
  expect(listing.ids.get("a.ts")).toBe(git(root, "hash-object", "a.ts").trim());
  expect(listing.ids.has(".cpilot/runs/x.json")).toBe(true);
  expect(listing.unsure.size).toBe(0);
  // only what is not a plain file has its mode kept; a submodule is not a file
  expect([...listing.modes]).toEqual([["tool.sh", "100755"]]);
});

test("an unmerged path is listed once with its last stage's id; a sha256 id and any layout git may write are read", () => {
  const a = "a".repeat(40);
  const b = "b".repeat(64);
  const c = "c".repeat(40);
  const listing = parseIndexListing(
    [
      `H 100644 ${a} 0\tfirst.ts`,
      `M 100644 ${a} 1\tboth.ts`,
      `M 100644 ${c} 3\tboth.ts`,
      `h 100644 ${b} 0\tassumed.ts`,
      `S 100755 ${c} 0\tsparse file.sh`,
      `HH 0100644 ${a} 0\todd layout.ts`,
      `H 100644 ${a} 0 no tab`,
      "",
    ].join("\0"),
  );
  expect(listing.paths).toEqual([
    "first.ts",
    "both.ts",
    "assumed.ts",
    "sparse file.sh",
    "odd layout.ts",
  ]);
  expect(listing.blobs).toEqual([a, c, b, c, a]);
  expect(listing.files).toBe(listing.paths);
  expect([...listing.unsure].sort()).toEqual(["assumed.ts", "both.ts", "sparse file.sh"]);
  expect(listing.ids.get("both.ts")).toBe(c);
  expect([...listing.modes]).toEqual([["sparse file.sh", "100755"]]);
});
