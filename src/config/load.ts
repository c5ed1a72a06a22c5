import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import type * as NodeUrl from "node:url";
import type { GateConfig } from "../model/gate-schema.ts";
import { nodeBuiltin } from "../platform/builtin.ts";
import { bun } from "../platform/bun.ts";
import { sha1Hex } from "../platform/digest.ts";
import { beforeUserCode } from "../platform/stdio.ts";
import { CpilotError } from "../util/errors.ts";
import { registerCpilotModule } from "./_register-module.ts";
import { CONFIG_NAMES, findConfig } from "./find.ts";
import { MANAGED_NAME, readManaged } from "./managed-file.ts";
import { type ResolvedConfig, resolveConfig } from "./resolve.ts";
import type { CallbackDef, CpilotConfig } from "./types.ts";
import { configFingerprint, knownValid, rememberValid } from "./validation-cache.ts";
import { cachedConfigValue, configValueKey, rememberConfigValue } from "./value-cache.ts";

/** This process must not use this config (`cpilot run`'s listener keeps only plain-data ones): the caller hands the call back. */
export class ConfigRefused extends Error {}

/**
 * A config that does not validate. `gate`: its gate section, when every problem lies in its
 * callbacks and the gate validates on its own, so the gate can still obey it.
 */
export class ConfigInvalid extends CpilotError {
  constructor(
    message: string,
    options: { hint?: string },
    readonly gate: GateConfig | undefined,
  ) {
    super(message, options);
  }
}

let configGuard: ((path: string, value: unknown) => void) | null = null;

export function setConfigGuard(guard: ((path: string, value: unknown) => void) | null): void {
  configGuard = guard;
}

export async function readConfigValue(path: string): Promise<unknown> {
  const ext = extname(path);
  const name = basename(path);
  if (ext === ".json" || ext === ".yaml" || ext === ".yml") {
    const text = readFileSync(path, "utf8");
    if (ext === ".json") {
      try {
        return JSON.parse(text);
      } catch (err) {
        const { syntaxError } = await import("./syntax-error-report.ts");
        throw syntaxError(path, text, "json", err);
      }
    }
    const { parseDocument } = await import("yaml");
    const doc = parseDocument(text);
    if (doc.errors.length > 0) {
      const { syntaxError } = await import("./syntax-error-report.ts");
      throw syntaxError(path, text, "yaml", doc.errors[0]);
    }
    return doc.toJS();
  }
  const source = readFileSync(path);
  const key = configValueKey(path, source);
  const cached = key === null ? undefined : cachedConfigValue(path, key);
  if (cached !== undefined) return cached;
  registerCpilotModule();
  // The content hash in the URL makes a long-running server see edits to the config.
  const version = sha1Hex(source).slice(0, 12);
  // Bun keys its module cache on a plain path's query but not on a file URL's; Deno on both.
  const url =
    bun && !/[?#]/.test(path)
      ? `${path}?v=${version}`
      : `${nodeBuiltin<typeof NodeUrl>("node:url").pathToFileURL(path).href}?v=${version}`;
  let mod: { default?: unknown };
  beforeUserCode();
  try {
    mod = (await import(url)) as { default?: unknown };
  } catch (err) {
    const { syntaxError } = await import("./syntax-error-report.ts");
    throw syntaxError(path, source.toString("utf8"), "script", err);
  }
  if (mod.default === undefined) {
    throw new CpilotError(`Cannot load config "${name}": it has no default export`, {
      hint: "end it with `export default defineConfig({ callbacks: [...] })`",
    });
  }
  if (key !== null) rememberConfigValue(path, key, mod.default);
  return mod.default;
}

/** A long-lived process that loads an unchanged config again gets the same object. */
let lastResolved: { key: string; config: ResolvedConfig } | null = null;

/** Load, validate and resolve a config file with its managed callbacks; every problem is reported at once. */
export async function loadConfigFile(path: string): Promise<ResolvedConfig> {
  const value = await readConfigValue(path);
  configGuard?.(path, value);
  const root = dirname(path);
  const managedValue = readManaged(root);
  const fingerprint = configFingerprint([value, managedValue]);
  const key = `${path}\0${fingerprint}`;
  if (lastResolved?.key === key) return lastResolved.config;
  if (knownValid(root, fingerprint)) {
    const config = value as CpilotConfig;
    const merged = {
      ...config,
      callbacks: [...config.callbacks, ...(managedValue as CallbackDef[])],
    };
    lastResolved = { key, config: resolveConfig(merged, root, path) };
    return lastResolved.config;
  }
  const { validateConfig } = await import("./validate.ts");
  const result = validateConfig(value);
  const problems = result.ok
    ? []
    : result.problems.map((p) => `${basename(path)}: ${p.path}: ${p.message}`);
  let managed: CallbackDef[] = [];
  if (managedValue.length > 0) {
    const ownNames = result.ok ? result.config.callbacks.map((c) => c.name) : [];
    const checked = validateConfig({ callbacks: managedValue }, { knownNames: ownNames });
    if (checked.ok) managed = checked.config.callbacks;
    else problems.push(...checked.problems.map((p) => `${MANAGED_NAME}: ${p.path}: ${p.message}`));
  }
  if (result.ok) {
    const own = new Set(result.config.callbacks.map((c) => c.name));
    managed.forEach((cb, i) => {
      if (own.has(cb.name)) {
        problems.push(
          `${MANAGED_NAME}: callbacks[${i}].name: duplicate name "${cb.name}", already used in ${basename(path)}`,
        );
      }
    });
  }
  if (!result.ok || problems.length > 0) {
    const paths = [
      ...(result.ok ? [] : result.problems.map((p) => p.path)),
      ...problems.filter((line) => line.startsWith(`${MANAGED_NAME}: `)).map(() => "callbacks"),
    ];
    const onlyCallbacks = paths.every((key) => /^callbacks(\[|\.|$)/.test(key));
    throw new ConfigInvalid(
      `Cannot use config "${path}": ${problems.length} problem${problems.length > 1 ? "s" : ""}\n${problems.map((l) => `  ${l}`).join("\n")}`,
      { hint: "fix the keys above; `cpilot list` shows the config once it loads" },
      onlyCallbacks ? await gateAlone(value) : undefined,
    );
  }
  rememberValid(root, fingerprint);
  const merged = { ...result.config, callbacks: [...result.config.callbacks, ...managed] };
  return resolveConfig(merged, root, path);
}

export async function loadProjectConfig(cwd: string, explicit?: string): Promise<ResolvedConfig> {
  const path = explicit ?? findConfig(cwd);
  if (path === null) {
    throw new CpilotError(`Cannot find callbacks.config.ts in "${cwd}" or any folder above it`, {
      hint: "run `cpilot init` to write one, or pass --config PATH",
    });
  }
  let folder: boolean;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    throw new CpilotError(`Cannot read config "${path}": no such file`, {
      hint: "check the --config path",
    });
  }
  if (folder) {
    const inside = CONFIG_NAMES.map((name) => join(path, name)).find((p) => existsSync(p));
    throw new CpilotError(`Cannot read config "${path}": it is a folder, not a config file`, {
      hint: inside
        ? `pass the config file itself: --config ${inside}`
        : `pass a config file (${CONFIG_NAMES.join(", ")}) to --config`,
    });
  }
  return loadConfigFile(path);
}

async function gateAlone(value: unknown): Promise<GateConfig | undefined> {
  if (value === null || typeof value !== "object") return undefined;
  const gate = (value as { gate?: unknown }).gate;
  if (gate === undefined) return {};
  const { gateConfigSchema } = await import("../model/gate-schema.ts");
  return gateConfigSchema.safeParse(gate).success ? (gate as GateConfig) : undefined;
}
