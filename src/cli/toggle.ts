import { readToggles, writeToggles } from "../config/state.ts";
import { loadProjectConfigSupervised } from "../config/supervised-load.ts";
import { say } from "../ui/style.ts";
import { CpilotError } from "../util/errors.ts";
import { assertKnownNames, parseFlags } from "./_common.ts";

/** For this project only, in `.cpilot/state.json`, so the config (and its review) stays untouched. */
export async function toggleCommand(
  on: boolean,
  args: string[],
  options: { cwd: string },
): Promise<number> {
  const verb = on ? "enable" : "disable";
  const usage = `cpilot ${verb} NAME... | --all`;
  const { values, positionals } = parseFlags(
    args,
    { all: { type: "boolean" }, config: { type: "string" } },
    usage,
    { all: "every callback in the config" },
  );
  if (!values.all && positionals.length === 0) {
    throw new CpilotError(`Cannot ${verb}: no callback named`, { hint: `usage: ${usage}` });
  }
  const config = await loadProjectConfigSupervised(options.cwd, values.config);
  const names = config.callbacks.map((c) => c.name);
  assertKnownNames(positionals, names, verb);
  const state = readToggles(config.root);
  if (values.all) {
    state.allDisabled = !on;
    if (on) state.disabled = [];
  }
  for (const name of positionals) {
    state.disabled = state.disabled.filter((n) => n !== name);
    state.enabled = state.enabled.filter((n) => n !== name);
    if (on) state.enabled.push(name);
    else state.disabled.push(name);
  }
  writeToggles(config.root, state);
  say(
    values.all
      ? `all callbacks ${on ? "resumed" : "paused"} in ${config.root}`
      : `${verb}d: ${positionals.join(", ")}`,
  );
  return 0;
}
