/**
 * The contract every coding agent implements: a folder src/agents/<name>/ whose `agent.ts`
 * exports an `Agent`, plus one line in ./registry.ts; nothing outside src/agents/ names an
 * agent. `agent.ts` is read on every hook call, so it holds data and small functions; the
 * rest loads on demand.
 */
import type { ResolvedConfig } from "../config/resolve.ts";
import type { HookAgent } from "../model/hook.ts";
import type { LiveDriver } from "../proof/live-driver.ts";
import type { HookAnswer } from "../proof/proof-answers.ts";

/** project: in the repo, shared; local: this machine's copy in the project; user: the home config. */
export type InstallScope = "project" | "local" | "user";

export interface InstallRequest {
  /** For paths shown relative to it. */
  readonly cwd: string;
  /** The folder of callbacks.config.ts, else the cwd. */
  readonly root: string;
  /** null: the agent's default. */
  readonly scope: InstallScope | null;
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  /** For hook timeouts; null when there is none or it does not load. */
  readonly config: ResolvedConfig | null;
  /** Also trust the project in the agent's own store, where it reads no project hooks before that. */
  readonly trustProject?: boolean;
  /** Claude Code: also the format-on-save mod, for the person's sessions. */
  readonly mod?: boolean;
}

export interface InstallReport {
  /** The file written (or that would have been). */
  readonly path: string;
  readonly changed: boolean;
  /** Complete, "cpilot: ..." first. */
  readonly lines: readonly string[];
}

export interface HookPlace {
  readonly path: string;
  readonly exists: boolean;
  readonly wired: boolean;
  readonly error?: string;
  /** For doctor's "can this command start?" check. */
  readonly commands: readonly string[];
  /** The agent will not run the hooks written here (not trusted, turned off...). */
  readonly inactive?: InactiveHooks;
  /** The write gate here lets a write through where cpilot is missing or crashes (an older cpilot wrote it). */
  readonly gateFailsOpen?: string;
  /** Where the hooks are a whole file (a plugin): how it differs from what install writes now, and the step. */
  readonly outdated?: string;
}

export interface InactiveHooks {
  readonly reason: string;
  /** The one command that fixes it, e.g. `cpilot install codex`. */
  readonly step: string;
  /** An agent argument that makes it run them anyway for one session. */
  readonly bypassArg?: string;
}

export interface AddOnCheck {
  readonly name: string;
  /** Where it is and what loads it, when it works. */
  readonly state: string;
  /** What keeps it from working and the step that fixes it. */
  readonly problem: string | null;
}

export interface McpTarget {
  configPath(root: string, env: Readonly<Record<string, string | undefined>>): string;
  /** For `--mcp --user`, where the agent has one apart from the project's. */
  userConfigPath?(env: Readonly<Record<string, string | undefined>>): string;
  /** JSON `mcpServers`, or TOML `[mcp_servers.<name>]` tables (Codex). */
  readonly format: "json" | "toml";
  /** A client that starts servers elsewhere gets --root. */
  readonly args: readonly string[];
  /** Beyond command and args (Claude Code: type "stdio"). */
  readonly entryFields?: Readonly<Record<string, unknown>>;
  readonly installNote?: string;
}

export interface SessionRequest {
  /** The agent's command as typed (its version may be asked). */
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Removed when the agent exits. */
  readonly dir: string;
  readonly config: ResolvedConfig | null;
  /** `cpilot run`'s 127.0.0.1 listener, for an agent that can post hook events to a URL; absent when it did not start. */
  readonly hookUrl?: SessionHookUrl;
}

export interface SessionHookUrl {
  readonly url: string;
  /** Values name an entry of `allowedEnvVars` as `$VAR`, never the secret. */
  readonly headers: Readonly<Record<string, string>>;
  readonly allowedEnvVars: readonly string[];
  /** For the calls the listener answers, which lack them. */
  addCallEnv(env: Readonly<Record<string, string>>): void;
}

/**
 * The payloads the agent sends its hook command around a write, and which part of an
 * answer reaches the model (as seen with the real CLI), so `doctor --prove` can check the
 * installed command without the agent or a model.
 */
export interface DeliveryProof {
  /** `file` is absolute. */
  afterWrite(cwd: string, file: string, content: string): Record<string, unknown>;
  beforeWrite(cwd: string, file: string, content: string): Record<string, unknown>;
  /** null when nothing reaches the model. */
  modelText(answer: HookAnswer, when: "before" | "after"): string | null;
}

export interface Agent extends HookAgent {
  /** Lower case; typed in `cpilot hook <name>`, `cpilot install <name>`. */
  readonly name: string;
  /** For people: "Claude Code". */
  readonly displayName: string;

  // hook calls (`cpilot hook <name>`): the protocol members and hook() come from HookAgent

  // --- install (`cpilot install|uninstall <name>`) ---
  readonly installScopes: readonly InstallScope[];
  /** Idempotent; keeps what is not cpilot's. */
  install(action: "install" | "uninstall", request: InstallRequest): Promise<InstallReport>;
  /** null when cpilot cannot register its MCP server there. */
  readonly mcp: McpTarget | null;

  // --- doctor and `cpilot run` ---
  /** On PATH means the agent is here. */
  readonly programs: readonly string[];
  /** `command`: its file name, lower case. */
  isCommand(name: string): boolean;
  /** Present means the project uses the agent. */
  readonly projectDir: string;
  homeDir(home: string, env: NodeJS.ProcessEnv): string;
  /** Project first, then the user's. */
  hookPlaces(root: string, home: string, env: NodeJS.ProcessEnv): Promise<HookPlace[]>;
  /**
   * The `hooks` map install writes (any command), so doctor names each event and matcher an
   * installed file lacks. Absent where the hooks are not such a map (a plugin).
   */
  writtenHooks?(): Promise<Readonly<Record<string, unknown>>>;
  /** doctor: what else cpilot installed (Claude Code's mod), each saying whether it is in place and loaded. */
  addOns?(home: string, env: NodeJS.ProcessEnv): Promise<AddOnCheck[]>;
  /**
   * `cpilot run -- <name>`: the arguments that give one session cpilot's hooks (files go in
   * `request.dir`). Absent when the agent cannot: its installed hooks or a watcher then check.
   */
  sessionArgs?(request: SessionRequest): Promise<string[]>;
  readonly postsHooks?: boolean;
  /** Absent when it cannot be played without the agent. */
  proof?(): Promise<DeliveryProof>;
  /** Absent when the real CLI cannot be run against cpilot's scripted model. */
  liveProof?(): Promise<LiveDriver>;
  /** `cpilot _format-call <name>`: the answer to the agent's mod before an edit (request text and folder in, JSON out). */
  formatCall?(): Promise<(request: string, cwd: string) => Promise<unknown>>;
}
