/**
 * Runs a GitHub Actions workflow file on this machine, as far as a test needs: each job's
 * `run` steps through bash in a project folder, a matrix job once per value, the `uses`
 * steps it knows played by copying files (cache, artifacts), and the few expressions
 * the example workflows use. Not a GitHub runner: what it cannot play, it throws on.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { parse } from "yaml";

type Step = {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | boolean>;
  env?: Record<string, string>;
};
type Job = {
  needs?: string;
  if?: string;
  strategy?: { matrix?: Record<string, (string | number)[]> };
  steps: Step[];
};
type Workflow = { env?: Record<string, string>; jobs: Record<string, Job> };

export interface WorkflowContext {
  readonly event: "push" | "pull_request";
  readonly sha: string;
  readonly vars: Record<string, string>;
  readonly secrets: Record<string, string>;
  /** Where the project is checked out (each job runs in it). */
  readonly workdir: string;
  /** Where the actions cache and the artifacts are kept between jobs and runs. */
  readonly store: string;
  /** The runner's temp folder, outside the work tree (`runner.temp`, RUNNER_TEMP). */
  readonly temp: string;
  /** The environment every step starts from (PATH with `npx` leading to cpilot). */
  readonly baseEnv: Record<string, string>;
}

export interface StepRun {
  readonly job: string;
  readonly shard: string | undefined;
  readonly command: string;
  readonly code: number | null;
  readonly stderr: string;
}

/** Run every job of `file` in order; returns the `run` steps it ran. */
export function runWorkflow(file: string, ctx: WorkflowContext): StepRun[] {
  const workflow = parse(readFileSync(file, "utf8")) as Workflow;
  const runs: StepRun[] = [];
  mkdirSync(ctx.temp, { recursive: true });
  for (const [name, job] of Object.entries(workflow.jobs)) {
    if (job.if !== undefined && job.if !== "always()" && !condition(job.if, ctx, {})) continue;
    const matrix = job.strategy?.matrix ?? {};
    const [axis, values] = Object.entries(matrix)[0] ?? [undefined, [undefined]];
    for (const value of values) {
      const m: Record<string, string> = axis
        ? { [axis]: String(value), total: String(values.length) }
        : {};
      let failed = false;
      for (const step of job.steps) {
        const always = step.if === "always()";
        if (failed && !always) continue;
        if (step.if !== undefined && !always && !condition(step.if, ctx, m)) continue;
        const env = {
          ...ctx.baseEnv,
          RUNNER_TEMP: ctx.temp,
          ...expand(workflow.env ?? {}, ctx, m),
          ...expand(step.env ?? {}, ctx, m),
        };
        if (step.uses !== undefined) {
          play(step, ctx, m);
          continue;
        }
        const command = value_(step.run ?? "", ctx, m);
        if (command.trim() === "npm ci") continue;
        const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", command], {
          cwd: ctx.workdir,
          env,
          encoding: "utf8",
          timeout: 120_000,
        });
        runs.push({ job: name, shard: m[axis ?? ""], command, code: r.status, stderr: r.stderr });
        if (r.status !== 0) failed = true;
      }
    }
  }
  return runs;
}

function play(step: Step, ctx: WorkflowContext, m: Record<string, string>): void {
  const action = (step.uses ?? "").replace(/@.*$/, "");
  const w = Object.fromEntries(
    Object.entries(step.with ?? {}).map(([k, v]) => [k, value_(String(v), ctx, m)]),
  );
  const cache = join(ctx.store, "cache");
  const artifacts = join(ctx.store, "artifacts");
  mkdirSync(cache, { recursive: true });
  mkdirSync(artifacts, { recursive: true });
  switch (action) {
    case "actions/checkout":
    case "actions/setup-node":
      return;
    case "actions/cache/restore": {
      const exact = join(cache, w.key as string);
      const prefix = w["restore-keys"] as string | undefined;
      const candidates = readdirSync(cache)
        .filter((k) => prefix !== undefined && k.startsWith(prefix))
        .sort();
      const found = existsSync(exact)
        ? exact
        : candidates.length > 0
          ? join(cache, candidates.at(-1) as string)
          : null;
      if (found) copyFileSync(found, resolve(ctx.workdir, w.path as string));
      return;
    }
    case "actions/cache/save":
      copyFileSync(resolve(ctx.workdir, w.path as string), join(cache, w.key as string));
      return;
    case "actions/upload-artifact": {
      const path = resolve(ctx.workdir, w.path as string);
      if (existsSync(path)) copyFileSync(path, join(artifacts, basename(path)));
      return;
    }
    case "actions/download-artifact": {
      const re = new RegExp(
        `^${(w.pattern as string).replace(/[.]/g, "\\.").replace(/\*/g, ".*")}`,
      );
      const into = resolve(ctx.workdir, (w.path as string | undefined) ?? ".");
      mkdirSync(into, { recursive: true });
      for (const f of readdirSync(artifacts))
        if (re.test(f)) copyFileSync(join(artifacts, f), join(into, f));
      return;
    }
    default:
      throw new Error(`workflow-runner cannot play ${step.uses}`);
  }
}

function expand(
  env: Record<string, string>,
  ctx: WorkflowContext,
  m: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, value_(String(v), ctx, m)]));
}

/** Text with each `${{ expression }}` replaced by its value. */
function value_(text: string, ctx: WorkflowContext, m: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expr: string) => evaluate(expr, ctx, m));
}

function condition(expr: string, ctx: WorkflowContext, m: Record<string, string>): boolean {
  return evaluate(expr, ctx, m) !== "";
}

/** `a == 'b' && x || y`, `'lit'`, `secrets.X`, `vars.X`, `matrix.X`, `github.sha`... */
function evaluate(expr: string, ctx: WorkflowContext, m: Record<string, string>): string {
  const ternary = /^(.+?) && (.+?) \|\| (.+)$/.exec(expr);
  if (ternary) {
    const [, cond, yes, no] = ternary as unknown as [string, string, string, string];
    return condition(cond, ctx, m) && evaluate(yes, ctx, m) !== ""
      ? evaluate(yes, ctx, m)
      : evaluate(no, ctx, m);
  }
  const eq = /^(.+?) == '(.*)'$/.exec(expr);
  if (eq) return evaluate(eq[1] as string, ctx, m) === eq[2] ? "true" : "";
  const lit = /^'(.*)'$/.exec(expr);
  if (lit) return lit[1] as string;
  if (expr === "github.event_name") return ctx.event;
  if (expr === "github.sha") return ctx.sha;
  if (expr === "runner.temp") return ctx.temp;
  if (expr === "strategy.job-total") return m.total ?? "1";
  const [scope, name] = expr.split(".") as [string, string];
  if (scope === "secrets") return ctx.secrets[name] ?? "";
  if (scope === "vars") return ctx.vars[name] ?? "";
  if (scope === "matrix" && m[name] !== undefined) return m[name] as string;
  throw new Error(`workflow-runner cannot evaluate \${{ ${expr} }}`);
}
