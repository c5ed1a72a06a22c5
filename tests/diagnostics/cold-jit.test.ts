import { expect, test } from "bun:test";
import { withColdJit } from "../../src/diagnostics/_cold-jit.ts";

// The raised JIT threshold only changes how fast a step runs; what it must keep is the
// step's own answer, its exception, and the normal policy afterwards, past the first steps too.
test("a step under the cold-JIT policy returns its value and throws its error, every time", () => {
  for (let i = 0; i < 30; i++) {
    expect(withColdJit(() => i * 2)).toBe(i * 2);
    expect(() =>
      withColdJit(() => {
        throw new Error(`step ${i}`);
      }),
    ).toThrow(`step ${i}`);
  }
  // Nested steps (a run's view while its diagnostics are read) leave the outer one whole.
  expect(withColdJit(() => `${withColdJit(() => "inner")} outer`)).toBe("inner outer");
});
