import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";
import { TEST_FILE } from "./deno-members.ts";
import { RunEvidence } from "./evidence.ts";
import { JS_TS } from "./node-tools.ts";
import { ProjectFiles } from "./project-files.ts";
import { scopePatterns } from "./scripts.ts";
import type { Proposal } from "./spec.ts";

interface DenoConfig {
  readonly fmt?: unknown;
  readonly lint?: unknown;
  readonly tasks?: unknown;
  readonly workspace?: unknown;
}

const TS = ["ts", "tsx", "mts", "cts"];
/** Deno colours its reports even into a pipe: the agent would read the escape codes. */
const PLAIN = { NO_COLOR: "1" };

/**
 * deno fmt and lint where deno.json is; `deno check` of the folder where a task or CI
 * type-checks (`deno check`, `deno test`), and `deno test` in the background where one runs
 * it. In a Deno workspace, fmt and lint run from the root (Deno applies each member's own
 * settings) and each member checks its own folder.
 */
export function detectDeno(p: ProjectFiles): Proposal[] {
  const config = p.first("deno.json", "deno.jsonc");
  if (!config) return [];
  const json = (p.json(config) ?? {}) as DenoConfig;
  const top = new ProjectFiles(p.top);
  const topConfig = top.first("deno.json", "deno.jsonc");
  const workspace = topConfig === undefined ? undefined : (top.json(topConfig) as DenoConfig);
  const member = p.root !== p.top && workspace?.workspace !== undefined;
  const tasks = `${JSON.stringify(json.tasks ?? {})} ${JSON.stringify(workspace?.tasks ?? {})}`;
  const evidence = new RunEvidence(p);
  const runs = (what: RegExp) =>
    what.test(tasks) || evidence.mentions("deno").some(({ line }) => what.test(line));
  const out: Proposal[] = [];
  if (!member) out.push(...formatAndLint(p, config, json, tasks));
  const why = member ? `${config}, a member of the Deno workspace at the root` : config;
  if (json.workspace === undefined && runs(CHECK))
    out.push({
      why,
      callback: {
        name: "deno-check",
        description: "TypeScript types (deno check)",
        pattern: [...scopePatterns([], TS), "deno.json", "deno.jsonc"],
        run: ["deno", "check", "--quiet", "."],
        env: PLAIN,
        timeout: 120,
        overlap: "replace",
        successMessage: "types OK",
      },
    });
  const test = testFlags(tasks, evidence);
  if (json.workspace === undefined && test !== undefined && hasTests(p.root))
    out.push({
      why: `${why}; a task or CI runs deno test`,
      callback: {
        name: "deno-test",
        description: "the tests, in the background",
        pattern: scopePatterns([], TS),
        run: ["deno", "test", "--quiet", ...test, "."],
        env: PLAIN,
        timeout: 600,
        blocking: false,
        overlap: "replace",
      },
    });
  return out;
}

/** deno test fails in a folder without test files. */
function hasTests(dir: string, depth = 0): boolean {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  if (entries.some((e) => e.isFile() && TEST_FILE.test(e.name))) return true;
  return (
    depth < 4 &&
    entries.some(
      (e) =>
        e.isDirectory() &&
        e.name !== "node_modules" &&
        !e.name.startsWith(".") &&
        hasTests(join(dir, e.name), depth + 1),
    )
  );
}

/** `deno check`, or `deno test`, which type-checks what it runs (`deno run` does not). */
const CHECK = /deno\s+(check|test)\b/;

/** The permission and unstable flags of the project's own `deno test` (it fails without them). */
function testFlags(tasks: string, evidence: RunEvidence): string[] | undefined {
  const lines = [tasks, ...evidence.mentions("deno").map(({ line }) => line)];
  const command = lines.map((l) => /deno\s+test\b([^"&|;]*)/.exec(l)?.[1]).find((c) => c);
  if (command === undefined) return undefined;
  return command
    .trim()
    .split(/\s+/)
    .filter((w) => /^(-A|--allow-all|--allow-[\w-]+(=\S+)?|--unstable-[\w-]+)$/.test(w));
}

function formatAndLint(
  p: ProjectFiles,
  config: string,
  json: DenoConfig,
  tasks: string,
): Proposal[] {
  // Beside a package.json, a deno.json that only maps imports says nothing of formatting:
  // deno fmt and lint count when it configures them or a task runs them.
  const denoOnly = !p.has("package.json");
  const fmt = denoOnly || json.fmt !== undefined || /deno\s+fmt/.test(tasks);
  const lint = denoOnly || json.lint !== undefined || /deno\s+lint/.test(tasks);
  const out: Proposal[] = [];
  if (fmt)
    out.push({
      why: config,
      callback: {
        name: "deno-fmt",
        description: "format",
        pattern: scopePatterns([], [...JS_TS, "json", "jsonc", "md"]),
        run: ["deno", "fmt", "--quiet", "{files}"],
        env: PLAIN,
        timeout: 60,
        fixes: true,
      },
    });
  if (lint)
    out.push({
      why: config,
      callback: {
        name: "deno-lint",
        description: "lint",
        pattern: scopePatterns([], JS_TS),
        run: ["deno", "lint", "--quiet", "{files}"],
        env: PLAIN,
        timeout: 60,
      },
    });
  return out;
}
