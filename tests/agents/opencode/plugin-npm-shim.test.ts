/**
 * A project that depends on cpilot: the shared OpenCode plugin starts the npm package's sh
 * shim (bin/cpilot.sh, the real file) from the plugin's own place in the project, which
 * starts the platform binary: no cpilot on PATH and no npx needed, from any folder.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { type AgentProject, agentProject, binary, cpilot, LINT } from "../gemini/_agent-project.ts";

type After = (
  input: Record<string, unknown>,
  output: { title: string; output: string; metadata: unknown },
) => Promise<void>;

let project: AgentProject;
const savedPath = process.env.PATH;

beforeAll(() => {
  project = agentProject("opencode", { callbacks: [LINT] });
  project.write({ "package.json": JSON.stringify({ devDependencies: { cpilot: "0.1.0" } }) });
  const modules = project.path("node_modules");
  mkdirSync(join(modules, "cpilot", "bin"), { recursive: true });
  const shim = join(modules, "cpilot", "bin", "cpilot.sh");
  copyFileSync(join(import.meta.dir, "../../../npm/cpilot/bin/cpilot.sh"), shim);
  chmodSync(shim, 0o755);
  mkdirSync(join(modules, "@cpilot", "linux-x64"), { recursive: true });
  symlinkSync(binary(), join(modules, "@cpilot", "linux-x64", "cpilot"));
  // No cpilot on PATH: only the project's copy can answer.
  process.env.PATH = "/usr/bin:/bin";
});
afterAll(() => {
  process.env.PATH = savedPath;
  project.remove();
});

test("the plugin names the shim by a project-relative path, and a failing callback reaches the model", async () => {
  const r = cpilot(["install", "opencode"], { cwd: project.dir, env: { PATH: "/usr/bin:/bin" } });
  expect(r.code).toBe(0);
  const file = project.path(".opencode/plugins/cpilot.ts");
  expect(readFileSync(file, "utf8")).toContain(
    'const CPILOT: string[] = ["./node_modules/cpilot/bin/cpilot.sh"];',
  );
  expect(
    cpilot(["doctor"], { cwd: project.dir, env: { PATH: "/usr/bin:/bin" } }).stdout,
  ).not.toContain("cannot start cpilot");
  const mod = (await import(file)) as {
    CpilotPlugin: (ctx: unknown) => Promise<{ "tool.execute.after": After }>;
  };
  // OpenCode started in a subfolder: the plugin still finds the project's node_modules.
  const sub = project.path("src");
  mkdirSync(sub, { recursive: true });
  const hooks = await mod.CpilotPlugin({ directory: sub, worktree: project.dir });
  project.write({ "src/bad.ts": "BAD\n" });
  const after = { title: "", output: "Wrote file successfully.", metadata: {} };
  await hooks["tool.execute.after"](
    {
      tool: "write",
      sessionID: "s",
      callID: "c1",
      args: { filePath: project.path("src/bad.ts"), content: "BAD\n" },
    },
    after,
  );
  // named from where OpenCode works (src/), as every reply names files from the agent's folder
  expect(after.output).toContain("'lint' failed on bad.ts");
}, 60_000);
