import { expect, test } from "bun:test";
import { writeSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { RunOutput } from "../../src/platform/run-output.ts";
import { tempDir } from "../helpers/tmp.ts";

/** The tail of `text` as the in-memory ring keeps it, and as read back from a direct log. */
function tails(text: string): { ring: string[]; direct: string[] } {
  const dir = tempDir("cpilot-output-");
  const ring = new RunOutput(join(dir, "ring.log"));
  ring.write(text);
  const direct = new RunOutput(join(dir, "direct.log"));
  const fd = direct.takeDirectFd();
  if (fd === null) throw new Error("expected a direct descriptor");
  writeSync(fd, text);
  const out = { ring: ring.tail(), direct: direct.tail() };
  ring.close();
  direct.close();
  expect(direct.tail()).toEqual(out.direct); // the same after close
  return out;
}

test("a log the process writes itself gives the same tail as the in-memory ring", () => {
  const cases = [
    "",
    "one\n",
    "no newline",
    "a\r\nb\r\n\n\n",
    "é ü 日本 🎉\n",
    `${"x".repeat(5000)}\nshort\n`,
    `${"line\n".repeat(500)}last`,
    `first\n${"y".repeat(300_000)}`,
    `${"z".repeat(70_000)}\n${"w".repeat(70_000)}\nend\n`,
    // Longer lines than the tail reads in one piece: each is read on its own, cut.
    `${"p".repeat(1_000_000)}\n${"q".repeat(1_000_000)}\nend\n`,
    `${"line\n".repeat(250)}${"é".repeat(9000)}\nlast\n`,
  ];
  for (const text of cases) {
    const { ring, direct } = tails(text);
    expect(direct).toEqual(ring);
  }
});

test("any output: the direct tail equals the ring's", () => {
  const piece = fc.constantFrom("a", "é", "🎉", "\n", "\r\n", " ", "x".repeat(700));
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 400 }), (parts) => {
      const { ring, direct } = tails(parts.join(""));
      expect(direct).toEqual(ring);
    }),
    { numRuns: 150 },
  );
});

test("a line listener keeps the pipe: no direct descriptor is handed out", () => {
  const dir = tempDir("cpilot-output-");
  const lines: string[] = [];
  const output = new RunOutput(join(dir, "a.log"), (line) => lines.push(line));
  expect(output.takeDirectFd()).toBeNull();
  output.write("a\nb");
  output.close();
  expect(lines).toEqual(["a", "b"]);
});
