import { expect, test } from "bun:test";
import { renderResync } from "../../../src/ui/agent/render-resync.ts";
import { renderResyncLine } from "../../../src/ui/run-line.ts";

const rewrite = (diff: string, newText: string | null = "x\n", oldText: string | null = null) => ({
  path: "src/a.ts",
  diff,
  newText,
  oldText,
});

test("a resync without hunks says why there is no diff, and asks for a re-read", () => {
  const large = rewrite(
    "--- a/src/a.ts\n+++ b/src/a.ts\n(changed by a callback during a large batch: re-read it)\n",
  );
  const huge = rewrite(
    "--- a/src/a.ts\n+++ b/src/a.ts\n(file over 1048576 bytes changed: re-read it)\n",
  );
  expect(renderResync(large)).toBe(
    "~ a callback rewrote src/a.ts after your edit (too many files to diff): Read it again before you edit it",
  );
  expect(renderResync(huge)).toContain("(too large to diff)");
  // on the terminal: no "(+0 -0)" for a diff that has no lines to count
  expect(renderResyncLine(large, false)).toBe("~ a callback rewrote src/a.ts");
});

test("a deletion reads as one, with or without the old text", () => {
  const known = rewrite("--- a/src/a.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n", null, "x\n");
  const unknown = rewrite("--- a/src/a.ts\n+++ /dev/null\n(deleted by a callback)\n", null);
  expect(renderResyncLine(known, false)).toBe("~ a callback deleted src/a.ts (+0 -1)");
  expect(renderResyncLine(unknown, false)).toBe("~ a callback deleted src/a.ts");
  expect(renderResync(unknown)).toBe(
    "~ a callback deleted src/a.ts after your edit: it is gone from disk",
  );
});

test("a rewrite with hunks counts its lines", () => {
  const diff = "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1,2 @@\n-a\n+b\n+c\n";
  expect(renderResyncLine(rewrite(diff), false)).toBe("~ a callback rewrote src/a.ts (+2 -1)");
});
