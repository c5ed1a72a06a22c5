// What one Claude Code PostToolUse hook call loads: runs `bun main.ts hook claude` from
// source on a Write of a.ts in a throwaway git project whose one callback (`true`) matches
// it, with a Bun loader plugin (./_hook-modules-preload.ts) that logs every module file
// loaded. Prints the count of the checkout's own modules (main.ts and src/), per folder,
// the dependencies' files, and with --list every path. With --calls it also traces the
// calls between the checkout's files and prints the deepest chain of calls that cross from
// one file to another (its hops), how many distinct file-to-file call edges the call used,
// and the files it went through outside the engine, diagnostics and the layers below them.
// Measures, asserts nothing.
//
// Usage: bun scripts/hook-modules.ts [--root CHECKOUT] [--event PostToolUse|PreToolUse]
//                                     [--nothing-matches] [--cold] [--list] [--calls]
// --cold measures a project's first call (its config not yet validated and cached).
// --root measures another checkout (an older commit: `git worktree add /tmp/old <ref>`).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    root: { type: "string" },
    event: { type: "string", default: "PostToolUse" },
    "nothing-matches": { type: "boolean" },
    list: { type: "boolean" },
    calls: { type: "boolean" },
    cold: { type: "boolean" },
  },
});
const root = realpathSync(resolve(values.root ?? join(import.meta.dir, "..")));
const work = realpathSync(mkdtempSync(join(tmpdir(), "cpilot-hook-modules-")));
try {
  const project = join(work, "project");
  execFileSync("git", ["init", "-q", "-b", "main", project]);
  writeFileSync(
    join(project, "callbacks.config.json"),
    JSON.stringify({
      callbacks: [{ name: "t", pattern: "*.ts", run: ["true"], timeout: 30, per: "file" }],
    }),
  );
  const file = join(project, values["nothing-matches"] ? "a.md" : "a.ts");
  writeFileSync(file, "export const a = 1;\n");
  const payload = JSON.stringify({
    session_id: "hook-modules",
    transcript_path: "/dev/null",
    cwd: project,
    hook_event_name: values.event,
    tool_name: "Write",
    tool_input: { file_path: file, content: "export const a = 1;\n" },
    ...(values.event === "PostToolUse" ? { tool_response: { success: true } } : {}),
    tool_use_id: "t1",
  });
  const log = join(work, "modules.log");
  const calls = join(work, "calls.json");
  const env = { PATH: process.env.PATH, HOME: work, CPILOT_RUNTIME_DIR: join(work, "runtime") };
  const hookCall = (preload: string[], extraEnv: Record<string, string>) => {
    const call = spawnSync(
      process.execPath,
      [...preload, join(root, "main.ts"), "hook", "claude"],
      {
        cwd: project,
        input: payload,
        encoding: "utf8",
        env: { ...env, ...extraEnv },
      },
    );
    if (call.status !== 0) {
      process.stderr.write(`hook call exited ${call.status}: ${call.stderr}\n`);
      process.exit(1);
    }
    return call;
  };
  // Every call but a project's first finds its config validated already (.cpilot/cache):
  // the measured call is the second, unless --cold.
  if (!values.cold) hookCall([], {});
  const run = hookCall(["--preload", join(import.meta.dir, "_hook-modules-preload.ts")], {
    HOOK_MODULES_LOG: log,
    HOOK_MODULES_ROOT: root,
    ...(values.calls ? { HOOK_MODULES_CALLS: calls } : {}),
  });
  const loaded = [...new Set(readFileSync(log, "utf8").split("\n").filter(Boolean))];
  const own = loaded
    .filter((p) => p === join(root, "main.ts") || p.startsWith(join(root, "src/")))
    .map((p) => p.slice(root.length + 1))
    .sort();
  const deps = loaded.filter((p) => !own.includes(p.slice(root.length + 1)));
  const folders = new Map<string, number>();
  for (const path of own) {
    const parts = path.split("/");
    const folder = parts.length > 2 ? parts.slice(1, parts.length > 3 ? 3 : 2).join("/") : ".";
    folders.set(folder, (folders.get(folder) ?? 0) + 1);
  }
  const out: string[] = [
    `hook claude ${values.event}${values["nothing-matches"] ? " (nothing matches)" : " (a callback matches)"}${values.cold ? ", first call" : ""}, ${root}`,
    `reply: ${run.stdout.trim() || "(none)"}`,
    `modules: ${own.length} of the checkout (main.ts, src/), ${deps.length} of dependencies`,
    `outside src/engine: ${own.filter((p) => !p.startsWith("src/engine/")).length}`,
    `per folder: ${[...folders].map(([f, n]) => `${f} ${n}`).join(", ")}`,
  ];
  if (values.calls) {
    const traced = JSON.parse(readFileSync(calls, "utf8")) as {
      deepest: string[];
      edges: string[];
    };
    out.push(
      `deepest chain of calls across files: ${traced.deepest.length - 1} hops`,
      ...traced.deepest.map((frame, i) => `  ${"  ".repeat(Math.min(i, 20))}${frame}`),
      `distinct file-to-file call edges: ${traced.edges.length}`,
    );
    // The hook path proper: the files the call went through, leaving out the engine and
    // what it stands on: the layers at and below src/engine in the checkout's own order
    // (LAYERS in .dependency-cruiser.cjs), diagnostics and session state among them.
    const below = engineAndBelow(root);
    const crossed = new Set(["main.ts"]);
    for (const edge of traced.edges) for (const file of edge.split(" -> ")) crossed.add(file);
    const path = [...crossed].filter((f) => !below.some((layer) => inLayer(f, layer))).sort();
    const dirs = new Set(path.map((f) => (f.includes("/") ? f.slice(0, f.lastIndexOf("/")) : ".")));
    out.push(
      `engine and below: ${below.join(", ")}`,
      `hook path outside the engine, diagnostics and their base: ${path.length} files in ${dirs.size} folders`,
      ...path.map((f) => `  ${f}`),
    );
  }
  if (values.list) out.push("own modules:", ...own.map((p) => `  ${p}`));
  if (values.list && deps.length > 0) out.push("dependencies:", ...deps.map((p) => `  ${p}`));
  process.stdout.write(`${out.join("\n")}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * The layers from the bottom up to src/engine, as the checkout's dependency-cruiser config
 * orders them: one `layer:<name>` rule a layer, in LAYERS order (the top one has none).
 */
function engineAndBelow(checkout: string): string[] {
  const config = require(join(checkout, ".dependency-cruiser.cjs")) as {
    forbidden: { name: string }[];
  };
  const layers = config.forbidden
    .map((rule) => rule.name)
    .filter((name) => name.startsWith("layer:"))
    .map((name) => name.slice("layer:".length));
  const engine = layers.indexOf("engine");
  if (engine < 0) throw new Error(`no layer:engine rule in ${checkout}/.dependency-cruiser.cjs`);
  return layers.slice(0, engine + 1);
}

/** A layer is a folder under src/ or one file (src/version.ts). */
function inLayer(file: string, layer: string): boolean {
  return layer.endsWith(".ts") ? file === layer : file.startsWith(`src/${layer}/`);
}
