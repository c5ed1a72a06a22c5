// The `gate` section's type as the npm package publishes it. cpilot itself derives it from
// its zod schema (src/model/gate-schema.ts); the package carries no zod, so it is written out here
// and tests/release/gate-config.typecheck.ts fails `npm run typecheck` when the two differ.
import type { GatePluginFunction } from "../../src/model/gate-types.ts";

/** One rule; rules are read in order and the last one that matches a path wins. */
export interface GateRule {
  action: "allow" | "deny" | "ask";
  /** gitignore-style, relative to the project root; `!` negates. */
  pattern: string | string[];
  /** Told to the model (deny) or the person (ask). */
  reason?: string | undefined;
}

/** A plugin run as a command: argv (no shell) or a shell string run by `/bin/sh -c`. */
export interface GateCommandPlugin {
  command: string | string[];
  /** Seconds; default `pluginTimeout`. */
  timeout?: number | undefined;
  /** Shown in reasons and the log; default the command's first word. */
  name?: string | undefined;
}

/** The `gate` section of the config: asks before an agent's write lands. */
export interface GateConfig {
  /** Built-in protections, each on by default. */
  defaults?:
    | {
        /** Deny writes that resolve outside the project root. */
        outsideRoot?: boolean | undefined;
        /** Deny writes through a symlink to somewhere outside the root. */
        symlinkEscape?: boolean | undefined;
        /** Deny writes into any `.git` directory. */
        git?: boolean | undefined;
        /** Deny writes to `.env*` (not `.env.example`), private keys and similar secrets. */
        secrets?: boolean | undefined;
        /** Deny writes into `.cpilot/`: an agent must not widen its own rights. */
        cpilotDir?: boolean | undefined;
        /** Deny names over 255 bytes and paths over 4096 bytes. */
        longNames?: boolean | undefined;
        /**
         * Deny writes to cpilot's config and the agents' hook settings, at any depth; no rule
         * can allow them. An agent that may ask a person (Claude Code) asks instead.
         */
        configFiles?: boolean | undefined;
        /** Allow the agent's own state folders outside the root (Claude Code's plans and todos). */
        agentState?: boolean | undefined;
      }
    | undefined;
  rules?: GateRule[] | undefined;
  plugins?: (GateCommandPlugin | GatePluginFunction)[] | undefined;
  /** Executables in this folder (relative to the root) run after `plugins`; false: none. */
  pluginsDir?: string | false | undefined;
  /** Seconds a plugin may take before it is killed and the write denied. */
  pluginTimeout?: number | undefined;
  /** What an `ask` rule does when no one can be asked (no terminal, or CI). */
  headless?: "deny" | "allow" | "rules-only" | undefined;
  /** Seconds to wait for the person's answer on the terminal; no answer is no. */
  askTimeout?: number | undefined;
  /** Append every decision to `.cpilot/gate.log.jsonl`. */
  log?: boolean | undefined;
}
