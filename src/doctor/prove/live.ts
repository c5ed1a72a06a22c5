/**
 * `doctor --prove` with the agent itself: its installed CLI runs headless in a throwaway project
 * with the person's HOME (their settings, trust, version) against cpilot's scripted model on
 * 127.0.0.1, which asks for three writes: one a check fails, one a formatter rewrites, one the gate
 * refuses. Every proxy variable points at cpilot too, so nothing reaches another host.
 */
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Agent } from "../../agents/contract.ts";
import type { LiveDriver } from "../../proof/live-driver.ts";
import { type ScriptStep, startFakeModel } from "../../proof/model/server.ts";
import { FAIL_MARK, GATE_MARK, PROOF_CONFIG, type ProofCheck, type ProofReport } from "../prove.ts";

/** Upper case, so the formatter's rewrite is recognised. */
const RESYNC_CONTENT = "cpilot proof resync\n";
const RESYNC_MARK = "CPILOT PROOF RESYNC";
const DEADLINE_MS = 240_000;

export async function proveLive(
  agent: Agent,
  driver: LiveDriver,
  bin: string,
  root: string,
  home: string,
  env: NodeJS.ProcessEnv,
): Promise<ProofReport> {
  const version = driver.version(bin, env);
  const base = {
    agent: agent.name,
    displayName: agent.displayName,
    level: "live",
    version,
  } as const;
  const project = realpathSync(mkdtempSync(join(tmpdir(), "cpilot-proof-")));
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "cpilot-proof-flags-")));
  try {
    await runGit(project);
    writeFileSync(
      join(project, "callbacks.config.json"),
      `${JSON.stringify(PROOF_CONFIG, null, 2)}\n`,
    );
    mkdirSync(join(project, "proof"));
    lendNpmInstall(root, project);
    const copied = driver.copyProjectSettings?.(root, project) ?? [];
    const substituted = driver.substitute?.({ root, home, env, scratch, bin }) ?? {
      env,
      notes: [],
    };
    const installed = await agent.install("install", {
      cwd: project,
      root: project,
      scope: null,
      home,
      env: substituted.env,
      config: null,
      ...(driver.installTrustsProject === true ? { trustProject: true } : {}),
    });
    const places = await agent.hookPlaces(project, home, substituted.env);
    const place = places.find((p) => p.path === installed.path) ?? places.find((p) => p.wired);
    const command = place?.commands[0] ?? null;
    const script: ScriptStep[] = [
      { write: join(project, "proof", "check.txt"), content: "x\n" },
      { write: join(project, "proof", "style.fmt"), content: RESYNC_CONTENT },
      { write: join(project, "proof-locked", "x.txt"), content: "x\n" },
      { done: "done" },
    ];
    const model = await startFakeModel(driver.shape, script);
    let run: Ran;
    try {
      const { args, env: runEnv } = driver.run({
        prompt: "cpilot doctor --prove: write the files you are asked to, then stop.",
        root,
        home,
        project,
        modelUrl: model.url,
        env: substituted.env,
        scratch,
      });
      run = await runCli(bin, args, project, runEnv, DEADLINE_MS);
    } finally {
      await model.close();
    }
    const turns = model.requests.filter((r) => r.kind === "turn").length;
    const switches = [
      ...(driver.hookSwitches?.(root, home, env) ?? []),
      ...(driver.untrusted?.(root, home, env) ?? []),
    ];
    const exited = run.timedOut
      ? `it was stopped after ${DEADLINE_MS / 1000} s`
      : `it exited ${run.code ?? "by a signal"}${run.stderr.trim() ? `: ${errorLine(run.stderr)}` : ""}`;
    const reached = (what: string, turn: number, mark: string): ProofCheck => {
      const text = driver.receivedAfter(model.requests, turn);
      if (text?.includes(mark))
        return { what, ok: true, detail: firstLine(after(text, mark)).trim() };
      const why =
        text === null && turns === 0
          ? `${agent.displayName} never asked the model (${exited})`
          : text === null
            ? `${agent.displayName} did not ask the model again after that write (${exited})`
            : `the model got only: ${firstLine(text) || "nothing"}`;
      return { what, ok: false, detail: [why, ...switches].join("; ") };
    };
    const checks: ProofCheck[] = [
      reached("a failing check reaches the model", 0, FAIL_MARK),
      reached("a resync (a formatter's rewrite) reaches it", 1, RESYNC_MARK),
      reached("a gate refusal reaches it", 2, GATE_MARK),
    ];
    if (existsSync(join(project, "proof-locked", "x.txt")))
      checks.push({ what: "the refused file is not written", ok: false, detail: "it was written" });
    const problems: string[] = [];
    if (turns === 0)
      problems.push(`${agent.displayName} (${bin}) never asked cpilot's model (${exited})`);
    const notes = [
      ...substituted.notes,
      ...(driver.copyProjectSettings === undefined
        ? []
        : copied.length > 0
          ? [`this project's settings were used (without their hooks): ${copied.join(", ")}`]
          : ["this project has no settings of its own for the agent"]),
      model.escapes.length === 0
        ? "no request left 127.0.0.1"
        : `${model.escapes.length} request(s) for other hosts were refused by cpilot's proxy: ${model.escapes.slice(0, 3).join(", ")}`,
    ];
    return {
      ...base,
      command,
      place: place ? "as `cpilot install` writes it" : null,
      checks,
      problems,
      notes,
    };
  } finally {
    rmSync(project, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The throwaway project borrows the real node_modules, so the agent runs the command the person's install wrote. */
function lendNpmInstall(root: string, project: string): void {
  let spec: unknown;
  try {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    spec = pkg?.devDependencies?.cpilot ?? pkg?.dependencies?.cpilot;
  } catch {
    return;
  }
  if (typeof spec !== "string" || !existsSync(join(root, "node_modules"))) return;
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify({ private: true, devDependencies: { cpilot: spec } }, null, 2)}\n`,
  );
  symlinkSync(join(root, "node_modules"), join(project, "node_modules"));
}

interface Ran {
  readonly code: number | null;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** Stopped with what it started at the deadline. */
function runCli(
  bin: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  deadlineMs: number,
): Promise<Ran> {
  return new Promise((resolve) => {
    // PWD is the shell's folder (the person's project): OpenCode takes its project from it
    const child = spawn(bin, args, {
      cwd,
      env: { ...env, PWD: cwd },
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    let timedOut = false;
    child.stderr.setEncoding("utf8").on("data", (part: string) => {
      if (stderr.length < 20_000) stderr += part;
    });
    const kill = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill("SIGTERM");
      setTimeout(() => kill("SIGKILL"), 3_000).unref();
    }, deadlineMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, stderr: `Cannot start "${bin}": ${error.message}`, timedOut: false });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      kill("SIGKILL"); // hooks' children left in the group
      resolve({ code, stderr, timedOut });
    });
  });
}

function runGit(cwd: string): Promise<void> {
  return new Promise((resolve) => {
    const git = spawn("git", ["init", "-q"], { cwd, stdio: "ignore" });
    git.on("error", () => resolve());
    git.on("close", () => resolve());
  });
}

function after(text: string, mark: string): string {
  const at = text.indexOf(mark);
  return text.slice(text.lastIndexOf("\n", at) + 1);
}

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

/** The first line naming an error, else the last. */
function errorLine(stderr: string): string {
  const message = /"message":\s*"((?:[^"\\]|\\.)*)"/.exec(stderr)?.[1]; // a JSON error report
  if (message) return firstLine(message);
  const lines = stderr.split("\n").filter((l) => l.trim() !== "");
  return firstLine(lines.find((l) => /error|cannot|invalid|fail/i.test(l)) ?? lines.at(-1) ?? "");
}
