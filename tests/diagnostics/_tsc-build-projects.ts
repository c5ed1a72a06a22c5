/**
 * The `tsc -b` early-stop tests' project: two projects, down referencing up, whose a.ts has
 * an old type error, built by `run`; `more` adds files (down/c.ts, node_modules/ in .gitignore).
 */
import { committedRepo } from "../helpers/tmp.ts";

export const BLOCKS = "checks failed after your last edits";
export const STOPPED =
  "it stopped at other errors before it reached down/b.ts: your edits there were not checked";
/** down/b.ts with the agent's type error. */
export const TYPE_ERROR = 'import { one } from "../up/a";\nexport const two: string = one + 1;\n';

const options = { composite: true, strict: true, outDir: "out" };

export function upDownProjects(
  prefix: string,
  run: string,
  more: { ignore?: string; files?: Record<string, string> } = {},
): string {
  return committedRepo(prefix, {
    ".gitignore": `.cpilot/\nout/\n*.tsbuildinfo\n${more.ignore ?? ""}`,
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "build", pattern: "*.ts", run, timeout: 120 }],
    }),
    "tsconfig.json": JSON.stringify({ files: [], references: [{ path: "up" }, { path: "down" }] }),
    "up/tsconfig.json": JSON.stringify({ compilerOptions: options, include: ["*.ts"] }),
    "up/a.ts": 'export const one: number = "x";\n',
    "down/tsconfig.json": JSON.stringify({
      compilerOptions: options,
      include: ["*.ts"],
      references: [{ path: "../up" }],
    }),
    "down/b.ts": 'import { one } from "../up/a";\nexport const two: number = one + 1;\n',
    ...more.files,
  });
}
