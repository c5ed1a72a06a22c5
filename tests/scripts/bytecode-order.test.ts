/**
 * The build lays out the bytecode the hook calls, then a commit's checks, run first
 * (scripts/_bytecode-order.ts): a first build's calls record it, and the final compile is
 * given those files.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { recordBytecodeOrder } from "../../scripts/_bytecode-order.ts";
import { compileArgs } from "../../scripts/compile.ts";
import { cpilotBinary } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";

test("each recorded call writes an order naming the functions it ran, the matching PostToolUse first, the checks last", () => {
  const files = recordBytecodeOrder(cpilotBinary(), tempDir("cpilot-order-"));
  expect(files.map((f) => f.split("/").at(-1))).toEqual([
    "post-edit-match.order",
    "post-edit-match-ts-config.order",
    "post-edit-match-no-version.order",
    "post-edit-none.order",
    "pre-write.order",
    "empty-stdin.order",
    "check-staged.order",
    "check-all.order",
  ]);
  for (const file of files) {
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines[0]).toBe("v2");
    expect(lines.filter((l) => l.startsWith("F ")).length).toBeGreaterThan(50);
  }
}, 60_000);

test("the compile gets the order files in their order, and no flag without them", () => {
  const options = { outfile: "/x/cpilot", commit: "c", targetName: "linux-x64" };
  expect(compileArgs({ ...options, bytecodeOrder: ["/o/a.order", "/o/b.order"] })).toContain(
    "--bytecode-order=/o/a.order,/o/b.order",
  );
  expect(compileArgs(options).some((a) => a.startsWith("--bytecode-order"))).toBe(false);
});
