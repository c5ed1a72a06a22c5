// A process of its own that records a callback's baseline for one file, as `cpilot check`
// does after a run: `bun _baseline-recorder.ts ROOT FILE GO`. Loaded, it makes the file
// FILE.ready, then starts once the file GO exists, so several recorders save at one moment.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compareWithBaseline } from "../../src/diagnostics/baseline/compare.ts";
import type { Diagnostic } from "../../src/model/diagnostic.ts";

const [root, file, go] = process.argv.slice(2) as [string, string, string];
const diagnostics: Diagnostic[] = Array.from({ length: 3000 }, (_, i) => ({
  file,
  line: i + 1,
  column: 1,
  severity: "error",
  code: "bad",
  message: `the word is banned (${i})`,
  tool: "compiler",
}));
writeFileSync(join(root, `${file}.ready`), "");
while (!existsSync(go)) Bun.sleepSync(1);
compareWithBaseline({
  root,
  callback: "lint",
  diagnostics,
  files: [file],
  edited: new Set(),
  fromCheck: true,
});
