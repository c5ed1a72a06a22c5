/**
 * The one contract every coding agent implements. An agent is one folder, src/agents/<name>/,
 * whose `agent.ts` exports an `Agent`, and one line in ./registry.ts. Nothing outside
 * src/agents/ names an agent: the CLI, doctor, `cpilot run` and the MCP installer ask the
 * registry. `agent.ts` is read on every hook call to its agent, so it holds data and small functions
 * only; anything heavier (the hook handler, the installer, the hook-file readers) is loaded
 * on demand by the member that needs it.
 */
import type { ResolvedConfig } from "../config/resolve.ts";
import type { HookAgent } from "../model/hook.ts";
import type { LiveDriver } from "../proof/live-driver.ts";
import type { HookAnswer } from "../proof/proof-answers.ts";

/**
 * Where `cpilot install <agent>` writes: project (files in the repo, shared with the team),
 * local (this machine's copy in the project, where the agent has one), user (the home config).
 */
export type InstallScope = "project" | "local" | "user";

/** What `cpilot install|uninstall <agent>` hands the agent's installer. */
export interface InstallRequest {
  /** The folder the command ran in, for paths shown relative to it. */
  readonly cwd: string;
  /** The project root (the folder of callbacks.config.ts, else the cwd). */
  readonly root: string;
  /** The scope asked for (one of the agent's `installScopes`), or null for the agent's default. */
  readonly scope: InstallScope | null;
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  /** The loaded config, for hook timeouts; null when there is none or it does not load. */
  readonly config: ResolvedConfig | null;
  /**
   * `--trust-project`: the person also trusts the project in the agent's own trust store,
   * where the agent reads no project hooks before that (Codex CLI, Copilot CLI, Gemini CLI).
   */
  readonly trustProject?: boolean;
  /** `--mod` (Claude Code): also cpilot's format-on-save mod, for the person's sessions. */
  readonly mod?: boolean;
}

/** What an install or uninstall did, for the person. */
export interface InstallReport {
  /** The file written (or that would have been). */
  readonly path: string;
  readonly changed: boolean;
  /** The lines to print on stderr, complete ("cpilot: ..." first). */
  readonly lines: readonly string[];
}

/** One place an agent reads hooks (or a plugin) from, and whether cpilot is in it. */
export interface HookPlace {
  readonly path: string;
  readonly exists: boolean;
  readonly wired: boolean;
  /** Set when the file cannot be read. */
  readonly error?: string;
  /** The cpilot hook commands written in it (for doctor's "can this command start?" check). */
  readonly commands: readonly string[];
  /** Set when the agent will not run the hooks written here (not trusted, turned off...). */
  readonly inactive?: InactiveHooks;
  /**
   * Set when the write gate's hook here lets a write through where cpilot is missing or
   * crashes (written by an older cpilot): what is wrong, in words.
   */
  readonly gateFailsOpen?: string;
  /**
   * Set when the file is not what `cpilot install` writes there now, where the agent's hooks
   * are a whole file rather than a map doctor compares (a plugin): what differs and the step.
   */
  readonly outdated?: string;
}

/** Why an agent skips hooks that are written, and what makes it run them. */
export interface InactiveHooks {
  /** "Codex does not trust ..." */
  readonly reason: string;
  /** The one command that fixes it, e.g. `cpilot install codex`. */
  readonly step: string;
  /** An agent argument that makes it run them anyway for one session, if any. */
  readonly bypassArg?: string;
}

/** One add-on cpilot installed for an agent, as doctor reports it. */
export interface AddOnCheck {
  /** What it is, in a few words ("format-on-save mod"). */
  readonly name: string;
  /** Where it is and what loads it, when it works. */
  readonly state: string;
  /** What keeps it from working and the step that fixes it, else null. */
  readonly problem: string | null;
}

/** How an agent keeps MCP servers, for `cpilot install <agent> --mcp` and doctor. */
export interface McpTarget {
  /** The file holding the agent's MCP servers for this project. */
  configPath(root: string, env: Readonly<Record<string, string | undefined>>): string;
  /** The person's own MCP config, for `--mcp --user`, where the agent has one apart from the project's. */
  userConfigPath?(env: Readonly<Record<string, string | undefined>>): string;
  /** A JSON `mcpServers` map, or TOML `[mcp_servers.<name>]` tables (Codex). */
  readonly format: "json" | "toml";
  /** The server's arguments by default (a client that starts servers elsewhere gets --root). */
  readonly args: readonly string[];
  /** The fields of cpilot's entry beyond command and args (Claude Code: type "stdio"). */
  readonly entryFields?: Readonly<Record<string, unknown>>;
  /** A line for the person after the entry is added or changed. */
  readonly installNote?: string;
}

/** What `cpilot run -- <agent>` hands an agent that takes hooks for one session. */
export interface SessionRequest {
  /** The agent's command as typed (its version may be asked). */
  readonly command: string;
  /** The arguments the person gave the agent. */
  readonly args: readonly string[];
  readonly cwd: string;
  /** A temp folder for this session's files, removed when the agent exits. */
  readonly dir: string;
  readonly config: ResolvedConfig | null;
  /**
   * A listener of `cpilot run` on 127.0.0.1 that answers this agent's hook calls in the
   * running process, for an agent that can post hook events to a URL; absent when it did
   * not start.
   */
  readonly hookUrl?: SessionHookUrl;
}

/** Where a session's hook calls may be posted, and how each proves it comes from the session. */
export interface SessionHookUrl {
  readonly url: string;
  /** Headers for each call; values name an entry of `allowedEnvVars` as `$VAR`, never the secret. */
  readonly headers: Readonly<Record<string, string>>;
  /** The variables the agent reads into the headers (set in its environment). */
  readonly allowedEnvVars: readonly string[];
  /** Variables the agent would set for a hook command, for the calls the listener answers. */
  addCallEnv(env: Readonly<Record<string, string>>): void;
}

/**
 * How `cpilot doctor --prove` plays an agent: the payloads it would send its hook command
 * around a write, and which part of an answer it hands the model (as seen with the real
 * CLI). Lets a person check, without the agent or a model, that the installed command
 * answers in the channel that reaches the model.
 */
export interface DeliveryProof {
  /** The agent's call after it wrote `file` (absolute) with `content`. */
  afterWrite(cwd: string, file: string, content: string): Record<string, unknown>;
  /** The agent's call before it writes `file`. */
  beforeWrite(cwd: string, file: string, content: string): Record<string, unknown>;
  /** What the model reads from a hook's answer to such a call; null when nothing reaches it. */
  modelText(answer: HookAnswer, when: "before" | "after"): string | null;
}

/** One coding agent, as cpilot drives it. */
export interface Agent extends HookAgent {
  /** The name typed in commands: `cpilot hook <name>`, `cpilot install <name>`. Lower case. */
  readonly name: string;
  /** The product's name for people: "Claude Code". */
  readonly displayName: string;

  // hook calls (`cpilot hook <name>`): the protocol members and hook() come from HookAgent

  // --- install (`cpilot install|uninstall <name>`) ---
  /** The scopes `cpilot install <name>` accepts. */
  readonly installScopes: readonly InstallScope[];
  /** Merge cpilot's hooks into (or out of) the agent's config; idempotent, keeps what is not cpilot's. */
  install(action: "install" | "uninstall", request: InstallRequest): Promise<InstallReport>;
  /** Its MCP config, or null when cpilot cannot register its MCP server there. */
  readonly mcp: McpTarget | null;

  // --- doctor and `cpilot run` ---
  /** Its CLI program names (on PATH means the agent is here). */
  readonly programs: readonly string[];
  /** True when a command (its file name, lower case) starts this agent: `cpilot run -- <command>`. */
  isCommand(name: string): boolean;
  /** Its config folder in a project (".claude"): present means the project uses the agent. */
  readonly projectDir: string;
  /** Its config folder in the home. */
  homeDir(home: string, env: NodeJS.ProcessEnv): string;
  /** Every file its hooks for this project may live in (project first, then the user's). */
  hookPlaces(root: string, home: string, env: NodeJS.ProcessEnv): Promise<HookPlace[]>;
  /**
   * The `hooks` map `cpilot install <name>` writes in those files (events to lists of
   * entries, grouped with a `matcher` or flat), with any command: doctor names each event
   * and matcher an installed file lacks. Absent where the hooks are not such a map (a plugin).
   */
  writtenHooks?(): Promise<Readonly<Record<string, unknown>>>;
  /**
   * doctor: what else cpilot installed for this agent besides its hooks (Claude Code's
   * format-on-save mod), each saying whether it is in place and loaded; absent or empty when
   * there is none.
   */
  addOns?(home: string, env: NodeJS.ProcessEnv): Promise<AddOnCheck[]>;
  /**
   * `cpilot run -- <name>`: the arguments that give one session cpilot's hooks (files go in
   * `request.dir`). Absent when the agent cannot take hooks for one session: its installed
   * hooks then call cpilot, or a watcher checks its edits.
   */
  sessionArgs?(request: SessionRequest): Promise<string[]>;
  /** True when its session hooks may be posted to a URL (`SessionRequest.hookUrl`). */
  readonly postsHooks?: boolean;
  /** How `cpilot doctor --prove` plays this agent; absent when it cannot be played without it. */
  proof?(): Promise<DeliveryProof>;
  /**
   * How `cpilot doctor --prove` runs this agent's real CLI against cpilot's scripted model;
   * absent when it cannot (the hook-level proof above is then all there is).
   */
  liveProof?(): Promise<LiveDriver>;
  /**
   * `cpilot _format-call <name>`: the answer to the agent's mod before an edit is recorded
   * (a request's text and the session's folder in, the reply's JSON out); absent for an
   * agent cpilot has no mod for.
   */
  formatCall?(): Promise<(request: string, cwd: string) => Promise<unknown>>;
}
