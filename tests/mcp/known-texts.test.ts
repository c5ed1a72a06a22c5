import { expect, test } from "bun:test";
import { forgetOldest } from "../../src/mcp/finish-batch.ts";

test("the texts kept for background diffs stay bounded, newest kept", () => {
  const mb = (n: number) => "x".repeat(n * 1024 * 1024);
  const known = new Map([
    ["old.ts", mb(20)],
    ["mid.ts", mb(10)],
    ["new.ts", mb(20)],
  ]);
  forgetOldest(known);
  expect([...known.keys()]).toEqual(["mid.ts", "new.ts"]);
  const small = new Map([["a.ts", "a"]]);
  forgetOldest(small);
  expect([...small.keys()]).toEqual(["a.ts"]);
});
