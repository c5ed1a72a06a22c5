import { readdirSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { ResolvedGateConfig } from "../model/gate-schema.ts";
import type { GatePluginFunction, PluginInput, PluginResult } from "../model/gate-types.ts";
import { type ProcessOutcome, runProcess } from "./_spawn.ts";

export type Plugin =
  | { kind: "command"; name: string; argv: string[]; timeoutMs: number }
  | { kind: "function"; name: string; fn: GatePluginFunction; timeoutMs: number };

/** No answer denies the write. */
export type PluginAnswer = { ok: true; result: PluginResult } | { ok: false; reason: string };

/** Config plugins in order, then the executables of the plugins folder, sorted by name. */
export function listPlugins(root: string, config: ResolvedGateConfig): Plugin[] {
  const defaultMs = config.pluginTimeout * 1000;
  const plugins: Plugin[] = config.plugins.map((p, i): Plugin => {
    if (typeof p === "function") {
      return { kind: "function", name: p.name || `function#${i + 1}`, fn: p, timeoutMs: defaultMs };
    }
    const argv = typeof p.command === "string" ? ["/bin/sh", "-c", p.command] : [...p.command];
    const first = typeof p.command === "string" ? p.command.split(/\s+/)[0] : p.command[0];
    return {
      kind: "command",
      name: p.name ?? basename(first ?? `plugin#${i + 1}`),
      argv,
      timeoutMs: (p.timeout ?? config.pluginTimeout) * 1000,
    };
  });
  if (config.pluginsDir === false) return plugins;
  const dir = resolve(root, config.pluginsDir);
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return plugins; // no plugins folder
  }
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const file = join(dir, name);
    try {
      const st = statSync(file);
      if (!st.isFile() || (st.mode & 0o111) === 0) continue;
    } catch {
      continue;
    }
    plugins.push({ kind: "command", name, argv: [file], timeoutMs: defaultMs });
  }
  return plugins;
}

function describe(outcome: ProcessOutcome, timeoutMs: number): string | null {
  const tail = (stderr: string): string => {
    const t = stderr.trim().split("\n").slice(-3).join(" | ");
    return t === "" ? "" : `; its stderr ends: ${t}`;
  };
  switch (outcome.kind) {
    case "exited":
      return outcome.code === 0
        ? null
        : `it crashed: exit ${outcome.code}${outcome.code === 127 ? " (command not found)" : ""}${tail(outcome.stderr)}`;
    case "signaled":
      return `it was killed by ${outcome.signal}${tail(outcome.stderr)}`;
    case "timeout":
      return `it timed out after ${timeoutMs / 1000} s: its process group got SIGTERM, then SIGKILL${tail(outcome.stderr)}`;
    case "too-much-output":
      return `it printed more than ${outcome.limit} bytes`;
    case "spawn-failed":
      return outcome.code === "ENOENT"
        ? "it is missing (command not found)"
        : outcome.code === "EACCES"
          ? "it cannot be run (permission denied: is it executable?)"
          : `it could not start: ${outcome.message}`;
  }
}

/** The documented shape, or why not. */
export function parsePluginResult(value: unknown): PluginResult | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return "its answer is not a JSON object";
  }
  const v = value as Record<string, unknown>;
  if (v.decision !== "allow" && v.decision !== "deny" && v.decision !== "modify") {
    return `its answer's "decision" is ${JSON.stringify(v.decision) ?? "missing"}, expected "allow", "deny" or "modify"`;
  }
  for (const key of ["reason", "path", "content"] as const) {
    if (v[key] !== undefined && typeof v[key] !== "string")
      return `its answer's "${key}" is not a string`;
  }
  if (v.decision === "modify" && v.path === undefined && v.content === undefined) {
    return 'its answer says "modify" but gives neither "path" nor "content"';
  }
  const result: PluginResult = { decision: v.decision };
  if (typeof v.reason === "string") result.reason = v.reason;
  if (typeof v.path === "string") result.path = v.path;
  if (typeof v.content === "string") result.content = v.content;
  return result;
}

async function callFunction(
  plugin: Extract<Plugin, { kind: "function" }>,
  input: PluginInput,
): Promise<PluginAnswer> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((r) => {
    timer = setTimeout(() => r("timeout"), plugin.timeoutMs);
  });
  try {
    const value = await Promise.race([Promise.resolve().then(() => plugin.fn(input)), timeout]);
    if (value === "timeout")
      return { ok: false, reason: `it timed out after ${plugin.timeoutMs / 1000} s` };
    const parsed = parsePluginResult(value);
    return typeof parsed === "string"
      ? { ok: false, reason: parsed }
      : { ok: true, result: parsed };
  } catch (err) {
    return { ok: false, reason: `it threw: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    clearTimeout(timer);
  }
}

/** A plugin that crashes, times out, is missing or answers garbage yields `ok: false`: the caller denies. */
export async function runPlugin(
  plugin: Plugin,
  input: PluginInput,
  root: string,
): Promise<PluginAnswer> {
  if (plugin.kind === "function") return callFunction(plugin, input);
  const outcome = await runProcess(plugin.argv, {
    cwd: root,
    env: { ...process.env, CP_HOOK: "pre_write", CP_ROOT: root },
    input: `${JSON.stringify(input)}\n`,
    timeoutMs: plugin.timeoutMs,
  });
  const failure = describe(outcome, plugin.timeoutMs);
  if (failure !== null || outcome.kind !== "exited")
    return { ok: false, reason: failure ?? "it failed" };
  let value: unknown;
  try {
    value = JSON.parse(outcome.stdout);
  } catch {
    const shown = outcome.stdout.trim().slice(0, 120);
    return {
      ok: false,
      reason:
        shown === ""
          ? "it printed nothing (expected a JSON decision)"
          : `it printed something that is not JSON: ${JSON.stringify(shown)}`,
    };
  }
  const parsed = parsePluginResult(value);
  return typeof parsed === "string" ? { ok: false, reason: parsed } : { ok: true, result: parsed };
}
