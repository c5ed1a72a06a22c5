// A plain-data config script's value is kept in the user's private runtime folder, so the
// next process skips importing it. Run through the compiled binary, as hook calls are.
import { expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
  ["imports another package", config("split", 'import "node:path";')],
  ["imports a file by a name without its extension", config("split", 'import "./helper";')],
  ["imports a file that reads the environment", config("split", 'import "./live.ts";')],
  [
    "holds a function",
    'import { defineConfig } from "cpilot";\nexport default defineConfig({ callbacks: [{ name: "t", description: "fn", pattern: "*.ts", run: () => 0, timeout: 5 }] });\n',
  ],
])("a script that %s is imported every time, never kept", (_why, source) => {
  const root = tempDir();
  const runtime = tempDir("cpilot-runtime-");
  writeFiles(root, {
    "callbacks.config.ts": source,
    "helper.ts": "export {};\n",
    "live.ts": "export const slow = process.env.SLOW;\n",
  });
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

test.each([
  ["a computed name", 'const where = "./helper.ts";\nconst { description } = await import(where);'],
  ["a name behind a comment", 'import { description } from /* the words */ "./helper";'],
])("a script that imports a file by %s sees that file's edits at once", (_how, load) => {
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

/** A config split over modules of its own: the callback's description comes from tools/. */
function splitConfig(root: string, description: string): void {
  writeFiles(root, {
    "callbacks.config.ts": `import { defineConfig } from "cpilot";
import { lint } from "./tools/lint.ts";

export default defineConfig({ callbacks: [lint] });
`,
    "tools/lint.ts": `import { describe } from "./words.ts";

export const lint = { name: "t", description: describe(), pattern: "*.ts", run: ["true"], timeout: 5 };
`,
    "tools/words.ts": `export const describe = () => ${JSON.stringify(description)};\n`,
  });
}

test("a script split over plain modules of its own is kept until any of them changes", () => {
  const root = tempDir();
  const runtime = tempDir("cpilot-runtime-");
  splitConfig(root, "real");
  expect(list(root, runtime)).toBe("real");
  const [entry] = entries(runtime);
  expect(entry).toBeDefined();
  const kept = JSON.parse(readFileSync(entry!, "utf8"));
  kept.value.callbacks[0].description = "from the cache";
  writeFileSync(entry!, JSON.stringify(kept));
  expect(list(root, runtime)).toBe("from the cache");
  // a module two imports down is part of the key: its edit is seen at once
  writeFiles(root, { "tools/words.ts": 'export const describe = () => "edited";\n' });
  expect(list(root, runtime)).toBe("edited");
  // and so is the config's own edit
  writeFiles(root, {
    "callbacks.config.ts": `${readFileSync(join(root, "callbacks.config.ts"), "utf8")}// a comment\n`,
  });
  writeFiles(root, { "tools/words.ts": 'export const describe = () => "again";\n' });
  expect(list(root, runtime)).toBe("again");
});

test("a module of its own that is gone or broken fails the load, whatever was kept", () => {
  const root = tempDir();
  const runtime = tempDir("cpilot-runtime-");
  splitConfig(root, "real");
  expect(list(root, runtime)).toBe("real");
  expect(entries(runtime)).toHaveLength(1);
  rmSync(join(root, "tools", "words.ts"));
  const gone = cpilot(["list", "--json"], { cwd: root, env: { CPILOT_RUNTIME_DIR: runtime } });
  expect(gone.code).toBe(2);
  expect(gone.stderr).toContain("words.ts");
  writeFiles(root, { "tools/words.ts": "export const describe = () => ;\n" });
  const broken = cpilot(["list", "--json"], { cwd: root, env: { CPILOT_RUNTIME_DIR: runtime } });
  expect(broken.code).toBe(2);
  expect(broken.stderr).toContain("Cannot load config");
});
