// A plain-data config script's value is kept in the user's private runtime folder, so the
// next process skips importing it. Run through the compiled binary, as hook calls are.
import { expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const config = (description: string, extra = "") =>
  `import { defineConfig } from "cpilot";
${extra}
export default defineConfig({
  callbacks: [{ name: "t", description: ${JSON.stringify(description)}, pattern: "*.ts", run: ["true"], timeout: 5 }],
});
`;

function list(root: string, runtime: string): string {
  const r = cpilot(["list", "--json"], { cwd: root, env: { CPILOT_RUNTIME_DIR: runtime } });
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { callbacks: { description: string }[] }).callbacks[0]!
    .description;
}

const entries = (runtime: string): string[] => {
  const dir = join(runtime, "config-values");
  return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
};

test("a plain-data script's value is reused until its source changes", () => {
  const root = tempDir();
  const runtime = tempDir("cpilot-runtime-");
  writeFiles(root, { "callbacks.config.ts": config("real") });
  expect(list(root, runtime)).toBe("real");
  const [entry] = entries(runtime);
  expect(entry).toBeDefined();
  // The next process reads the kept value instead of importing the script: shown by
  // changing the kept value (only this user can: the folder is theirs, mode 700).
  const kept = JSON.parse(readFileSync(entry!, "utf8"));
  kept.value.callbacks[0].description = "from the cache";
  writeFileSync(entry!, JSON.stringify(kept));
  expect(list(root, runtime)).toBe("from the cache");
  // Any edit to the source is a new key: the script is imported again.
  writeFiles(root, { "callbacks.config.ts": config("real", "// a comment") });
  expect(list(root, runtime)).toBe("real");
  expect(JSON.parse(readFileSync(entry!, "utf8")).value.callbacks[0].description).toBe("real");
});

test.each([
  ["reads the environment", config("live", "const slow = process.env.SLOW;")],
  ["imports another file", config("split", 'import "./helper.ts";')],
  [
    "holds a function",
    'import { defineConfig } from "cpilot";\nexport default defineConfig({ callbacks: [{ name: "t", description: "fn", pattern: "*.ts", run: () => 0, timeout: 5 }] });\n',
  ],
])("a script that %s is imported every time, never kept", (_why, source) => {
  const root = tempDir();
  const runtime = tempDir("cpilot-runtime-");
  writeFiles(root, { "callbacks.config.ts": source, "helper.ts": "export {};\n" });
  list(root, runtime);
  expect(entries(runtime)).toEqual([]);
});

test("without a private runtime folder nothing is kept, and the config still loads", () => {
  const root = tempDir();
  const runtime = tempDir("cpilot-runtime-");
  chmodSync(runtime, 0o755); // others could enter it: not private
  writeFiles(root, { "callbacks.config.ts": config("real") });
  expect(list(root, runtime)).toBe("real");
  expect(list(root, runtime)).toBe("real");
  expect(entries(runtime)).toEqual([]);
});

test("a script that imports a file by a computed name sees that file's edits at once", () => {
  const load = 'const where = "./helper.ts";\nconst { description } = await import(where);';
  const root = tempDir();
  const runtime = tempDir("cpilot-runtime-");
  const source = `import { defineConfig } from "cpilot";
${load}
export default defineConfig({
  callbacks: [{ name: "t", description, pattern: "*.ts", run: ["true"], timeout: 5 }],
});
`;
  writeFiles(root, {
    "callbacks.config.ts": source,
    "helper.ts": 'export const description = "first";\n',
  });
  expect(list(root, runtime)).toBe("first");
  writeFiles(root, { "helper.ts": 'export const description = "second";\n' });
  expect(list(root, runtime)).toBe("second");
});

test("a script that reaches the environment through an escaped name is read every time", () => {
  const root = tempDir();
  const runtime = tempDir("cpilot-runtime-");
  // \u0070rocess is `process` to JavaScript, but not to a search for the word
  writeFiles(root, {
    "callbacks.config.ts": config("x", "const description = \\u0070rocess.env.DESC;").replace(
      'description: "x"',
      "description",
    ),
  });
  const described = (value: string) => {
    const r = cpilot(["list", "--json"], {
      cwd: root,
      env: { CPILOT_RUNTIME_DIR: runtime, DESC: value },
    });
    return (JSON.parse(r.stdout) as { callbacks: { description: string }[] }).callbacks[0]!
      .description;
  };
  expect(described("first")).toBe("first");
  expect(described("second")).toBe("second");
});
