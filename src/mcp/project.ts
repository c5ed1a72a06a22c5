import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { findConfig } from "../config/find.ts";
import { ConfigInvalid, loadProjectConfig } from "../config/load.ts";
import { probeTimeoutMs } from "../config/load-probe.ts";
import { managedPath } from "../config/managed.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { ConfigDidNotLoad, loadConfigSupervised } from "../config/supervised-load.ts";
import { createEngine, type Engine } from "../engine/engine.ts";
import { packageConfigFolders } from "../engine/nested-configs.ts";
import { gitRoot } from "../match/git-root.ts";
import type { GateConfig } from "../model/gate-schema.ts";

export type ProjectState =
  | { kind: "ok"; config: ResolvedConfig; engine: Engine }
  /** Edits work, no callbacks run. */
  | { kind: "none" }
  /**
   * Callbacks wait for a fix; edits work under the gate section it still gives, or the last
   * that loaded. With neither, or when it did not finish loading (`unloaded`), writes are
   * refused: the gate cannot consult it.
   */
  | { kind: "broken"; error: string; unloaded?: true };

/** CPILOT_CONFIG_LOAD_TIMEOUT_MS overrides, as for hooks. */
const LOAD_TIMEOUT_MS = 10_000;

function mtime(path: string): string {
  try {
    const s = statSync(path);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return "-";
  }
}

/** The config's folder (explicit or found upwards), else the git top level, else `cwd`. */
export function projectRoot(cwd: string, explicitConfig?: string): string {
  if (explicitConfig !== undefined) return dirname(resolve(cwd, explicitConfig));
  const found = findConfig(cwd);
  if (found !== null) return dirname(found);
  return gitRoot(cwd) ?? resolve(cwd);
}

/** Reloads the config when its files change, one engine per loaded config, remembering the last gate section that loaded. */
export class Project {
  readonly root: string;
  private readonly explicitConfig: string | undefined;
  private key = "";
  private state: ProjectState = { kind: "none" };
  private lastGate: GateConfig = {};
  /** Whether any config (or a broken one's still-known gate section) set lastGate yet. */
  private gateKnown = false;

  constructor(root: string, explicitConfig?: string) {
    this.root = root;
    this.explicitConfig = explicitConfig === undefined ? undefined : resolve(explicitConfig);
  }

  configPath(): string | null {
    return this.explicitConfig ?? findConfig(this.root);
  }

  /** A call made while a reload runs (its trial load may take seconds) waits for it rather than getting the old state. */
  async load(): Promise<ProjectState> {
    const path = this.configPath();
    const key = path === null ? "none" : `${path}|${mtime(path)}|${mtime(managedPath(this.root))}`;
    if (key === this.key) return this.reloading ?? this.state;
    this.key = key;
    const reload = this.reload(path);
    this.reloading = reload;
    try {
      return await reload;
    } finally {
      if (this.reloading === reload) this.reloading = null;
    }
  }

  private reloading: Promise<ProjectState> | null = null;

  /** Becomes the state unless a newer reload began meanwhile. */
  private async reload(path: string | null): Promise<ProjectState> {
    const key = this.key;
    let next: ProjectState;
    let gate: GateConfig | null = null;
    if (path === null) {
      next = { kind: "none" };
    } else {
      try {
        // User code runs here only once it has shown, in a child, that it loads in time.
        const config = existsSync(path)
          ? await loadConfigSupervised(path, {
              cwd: this.root,
              timeoutMs: probeTimeoutMs(process.env, LOAD_TIMEOUT_MS),
            })
          : await loadProjectConfig(this.root, path);
        gate = config.source.gate ?? {};
        next = { kind: "ok", config, engine: createEngine({ root: config.root, config }) };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        const hint = (err as { hint?: unknown }).hint;
        // Only its callbacks are wrong: its gate section still decides.
        if (err instanceof ConfigInvalid && err.gate !== undefined) gate = err.gate;
        // The gate's rules cannot be known (no config has loaded in this server yet, and
        // this one gives none): writes are refused, as the hooks refuse them.
        const unknownGate = gate === null && !this.gateKnown;
        next = {
          kind: "broken",
          error: typeof hint === "string" ? `${message}\nhint: ${hint}` : message,
          ...(err instanceof ConfigDidNotLoad || unknownGate ? { unloaded: true as const } : {}),
        };
      }
    }
    if (this.key === key) {
      this.state = next;
      if (gate !== null) {
        this.lastGate = gate;
        this.gateKnown = true;
      }
    }
    return next;
  }

  /** Package folders whose own config judged an edit in this session: their runs are kept there. */
  private readonly packages = new Set<string>();

  notePackage(root: string): void {
    this.packages.add(root);
  }

  /**
   * Where runs are recorded: the project's folder first, then its packages' (a run id the
   * agent holds from an earlier session, or a hook, may be one of theirs).
   */
  runRoots(): string[] {
    const found = packageConfigFolders(this.root).map((folder) => join(this.root, folder));
    return [...new Set([this.root, ...this.packages, ...found])];
  }

  /** {} before any did: built-in protections. */
  gateConfig(): GateConfig {
    return this.lastGate;
  }
}
