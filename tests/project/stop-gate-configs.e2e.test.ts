/**
 * The stop gate in a monorepo, through `cpilot hook claude` of the compiled binary: a
 * failure judged by a config other than the one of the agent's folder (a package's own for
 * an agent started at the root, the root's for an agent started in a package) holds the
 * agent's stop, is re-checked with the config that judged it, and the stop's text names that
 * config; two configs' callbacks of one name keep their results apart.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

/** A per-file callback that fails on a file holding `word`. */
const refuse = (name: string, word: string) => ({
  name,
  pattern: "*.ts",
  per: "file",
  timeout: 30,
  run: `if grep -n ${word} "$CP_CHANGED_FILE"; then echo "${name}: ${word} found" >&2; exit 1; fi`,
});

const LIMIT = { maxStopBlocks: 2 };

/** A repository with a root config and packages/a with its own; packages/b has none. */
function monorepo(rootCallbacks: unknown[], pkgCallbacks: unknown[]): string {
  const root = tempDir("cpilot-stopgate-", { git: true });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({ agent: LIMIT, callbacks: rootCallbacks }),
    "packages/a/callbacks.config.json": JSON.stringify({ agent: LIMIT, callbacks: pkgCallbacks }),
    "packages/a/package.json": '{ "name": "a" }\n',
    "packages/b/package.json": '{ "name": "b" }\n',
  });
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", "init"], { cwd: root });
  return root;
}

/** The agent (started in `cwd`, relative to `root`) writes `file` (relative to `root`). */
function write(root: string, cwd: string, file: string, content: string) {
  writeFileSync(join(root, file), content);
  const r = cpilot(["hook", "claude"], {
    cwd: join(root, cwd),
    input: JSON.stringify({
      session_id: "s1",
      cwd: join(root, cwd),
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: join(root, file), content },
      tool_response: { type: "update", filePath: join(root, file) },
      tool_use_id: "toolu_1",
    }),
  });
  expect(r.code === 0 || r.code === 2).toBe(true);
  return `${r.stdout}${r.stderr}`;
}

/** The agent (started in `cwd`) wants to stop: the reason when held, else null (and the notes). */
function stop(root: string, cwd: string): { held: string | null; notes: string } {
  const r = cpilot(["hook", "claude"], {
    cwd: join(root, cwd),
    input: JSON.stringify({
      session_id: "s1",
      cwd: join(root, cwd),
      hook_event_name: "Stop",
      stop_hook_active: false,
    }),
  });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
  const reply = (r.stdout.trim() === "" ? {} : JSON.parse(r.stdout)) as {
    decision?: string;
    reason?: string;
    systemMessage?: string;
  };
  return {
    held: reply.decision === "block" ? (reply.reason ?? "") : null,
    notes: reply.systemMessage ?? "",
  };
}

test("an agent started at the root leaves a failure its package's own config judged: its stop is held until the file passes", () => {
  const root = monorepo([refuse("root-lint", "ROOTBAD")], [refuse("pkg-lint", "TODO")]);
  // named from the agent's folder, the root, not the package's
  expect(write(root, ".", "packages/a/x.ts", "export const x = 1; // TODO\n")).toContain(
    "'pkg-lint' failed on packages/a/x.ts",
  );
  const held = stop(root, ".").held;
  expect(held).not.toBeNull();
  expect(held).toContain("cpilot: judged by packages/a/callbacks.config.json:");
  expect(held).toContain("'pkg-lint' failed on packages/a/x.ts");
  expect(held).toContain("pkg-lint: TODO found");
  // fixed without an edit tool: the re-check with the package's config sees it
  writeFileSync(join(root, "packages/a/x.ts"), "export const x = 1;\n");
  expect(stop(root, ".")).toEqual({ held: null, notes: "" });
});

test("an agent started in a package leaves a failure in a sibling the root's config judged: held, named, and let go at the limit", () => {
  const root = monorepo([refuse("root-lint", "ROOTBAD")], [refuse("pkg-lint", "TODO")]);
  expect(
    write(root, "packages/a", "packages/b/y.ts", "export const y = 1; // ROOTBAD\n"),
  ).toContain("'root-lint' failed on ../b/y.ts"); // from the agent's folder, as git names it
  for (const n of [1, 2]) {
    const held = stop(root, "packages/a").held;
    expect(held).toContain(`reminder ${n} of at most 2`);
    expect(held).toContain("cpilot: judged by callbacks.config.json:");
    expect(held).toContain("'root-lint' failed on ../b/y.ts");
  }
  // the package's limit (the agent's folder's config) is spent: it may stop, told what is open
  const last = stop(root, "packages/a");
  expect(last.held).toBeNull();
  expect(last.notes).toContain("stopped blocking");
});

test("an agent started in a package fixes the sibling's failure after a held stop: the re-check with the root's config lets it go", () => {
  const root = monorepo([refuse("root-lint", "ROOTBAD")], [refuse("pkg-lint", "TODO")]);
  write(root, "packages/a", "packages/b/y.ts", "export const y = 1; // ROOTBAD\n");
  expect(stop(root, "packages/a").held).toContain("'root-lint' failed on ../b/y.ts");
  // a TODO is the package's concern, not the root's: the root's check passes it
  writeFileSync(join(root, "packages/b/y.ts"), "export const y = 1; // TODO\n");
  expect(stop(root, "packages/a")).toEqual({ held: null, notes: "" });
});

test("callbacks of one name in two configs keep apart: the package's pass on its x.ts does not clear the root's failure on x.ts", () => {
  const root = monorepo([refuse("lint", "ROOTBAD")], [refuse("lint", "TODO")]);
  expect(write(root, ".", "x.ts", "export const x = 1; // ROOTBAD\n")).toContain(
    "'lint' failed on x.ts",
  );
  // the same name, and the same file name relative to its config's folder
  expect(write(root, ".", "packages/a/x.ts", "export const x = 1; // ROOTBAD\n")).not.toContain(
    "failed",
  );
  const held = stop(root, ".").held;
  expect(held).toContain("'lint' failed on x.ts");
  expect(held).toContain("lint: ROOTBAD found");
  expect(held).not.toContain("judged by packages/a");
  // and the other way: the package's failure stands beside the root's pass
  writeFileSync(join(root, "x.ts"), "export const x = 1;\n");
  expect(write(root, ".", "packages/a/x.ts", "export const x = 1; // TODO\n")).toContain(
    "'lint' failed on packages/a/x.ts",
  );
  expect(write(root, ".", "x.ts", "export const x = 1; // TODO\n")).not.toContain("failed");
  const again = stop(root, ".").held;
  expect(again).toContain("cpilot: judged by packages/a/callbacks.config.json:");
  expect(again).toContain("lint: TODO found");
});

test("a result naming a config the gate may not trust (outside git, where the agent can write the records) never makes it load that config", () => {
  const root = tempDir("cpilot-stopgate-nogit-");
  const elsewhere = tempDir("cpilot-stopgate-evil-");
  const marker = join(elsewhere, "ran");
  writeFiles(elsewhere, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "lint", pattern: "*.ts", run: `touch '${marker}'; exit 1` }],
    }),
  });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({ callbacks: [refuse("lint", "ROOTBAD")] }),
    ".cpilot/sessions/s1/results/lint@0000000000000000.json": JSON.stringify({
      config: join(elsewhere, "callbacks.config.json"),
      callback: "lint",
      per: "batch",
      files: ["x.ts"],
      blocking: true,
      status: "failed",
      runId: "r1",
      startedAt: 1,
    }),
    "x.ts": "export const x = 1;\n",
  });
  expect(stop(root, ".")).toEqual({ held: null, notes: "" });
  expect(existsSync(marker)).toBe(false);
});

test("a package's config that runs code (loaded in a supervised child) re-checks its failure at the stop of an agent started at the root", () => {
  const root = monorepo([refuse("root-lint", "ROOTBAD")], []);
  writeFiles(root, {
    "packages/a/callbacks.config.ts": `import { join } from "node:path";
export default { callbacks: [${JSON.stringify(refuse("pkg-lint", "TODO"))}].map((c) => ({ ...c, name: join(c.name) })) };
`,
  });
  execFileSync("git", ["rm", "-q", "packages/a/callbacks.config.json"], { cwd: root });
  execFileSync("git", ["add", "-A"], { cwd: root });
  execFileSync("git", ["commit", "-qm", "ts config"], { cwd: root });
  // named from the agent's folder, the root, not the package's
  expect(write(root, ".", "packages/a/x.ts", "export const x = 1; // TODO\n")).toContain(
    "'pkg-lint' failed on packages/a/x.ts",
  );
  const held = stop(root, ".").held;
  expect(held).toContain("cpilot: judged by packages/a/callbacks.config.ts:");
  expect(held).toContain("pkg-lint: TODO found");
  writeFileSync(join(root, "packages/a/x.ts"), "export const x = 1;\n");
  expect(stop(root, ".")).toEqual({ held: null, notes: "" });
});
