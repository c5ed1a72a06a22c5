import { buildCallback } from "../add/build.ts";
import { gatherContext } from "../add/context.ts";
import { chooseName } from "../add/names.ts";
import { findOverlap } from "../add/overlap.ts";
import { loadTakenNames } from "../add/project.ts";
import { resolveProvider } from "../add/provider.ts";
import { callbackJson, renderPreview, shellQuote } from "../add/render.ts";
import { findConfig } from "../config/find.ts";
import { deleteManaged, MANAGED_NAME, managedPath, upsertManaged } from "../config/managed.ts";
import { readToggles, writeToggles } from "../config/state.ts";
import { promptOnTty } from "../gate/ask.ts";
import { writeOut } from "../platform/stdio.ts";
import { paint, say } from "../ui/style.ts";
import { CpilotError } from "../util/errors.ts";
import { parseFlags } from "./_common.ts";

const USAGE =
  'cpilot add "<what to run, on which files>" [--yes] [--dry-run] [--json] [--name NAME] [--replace] [--offline]';

export const ADD_HELP = `usage: ${USAGE}

Build a callback from plain words, show it, and save it to ${MANAGED_NAME} after you say yes.
  cpilot add "run cargo check after I edit rust files and show me the errors"
  cpilot add "format python files with ruff after each file, in the background"

  --yes               save without asking (for scripts)
  --dry-run           only show the callback
  --json              also print the callback as JSON on stdout
  --name NAME         save under this name
  --replace           overwrite a callback of the same name in ${MANAGED_NAME}
  --offline           do not ask a model; use the built-in phrase rules
  --provider P        anthropic | openai (any OpenAI-compatible API) | none
  --model M, --base-url URL, --model-timeout SECONDS, --config PATH

The model (a small, cheap one) is chosen by the environment:
  CPILOT_MODEL_PROVIDER   anthropic | openai | none (default: from the key that is set)
  CPILOT_MODEL_API_KEY    or ANTHROPIC_API_KEY / OPENAI_API_KEY
  CPILOT_MODEL            default claude-haiku-4-5 (anthropic), gpt-4o-mini (openai)
  CPILOT_MODEL_BASE_URL   default https://api.anthropic.com, https://api.openai.com/v1
                          (a local OpenAI-compatible server needs no key)
  CPILOT_MODEL_TIMEOUT    seconds per request, default 20
It is sent your words, the names of the project's top-level files, package.json script
names, Makefile targets and existing callback names; never file contents.
Without a key, or when the model's answer is unusable, phrase rules build the callback
and say so. Exit 0 saved (or --dry-run), 1 not saved, 2 usage or config error.`;

/** Build a callback from plain words, preview it, save it on yes. */
export async function addCommand(
  args: string[],
  ctx: { cwd: string; signal?: AbortSignal },
): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      yes: { type: "boolean", short: "y" },
      "dry-run": { type: "boolean" },
      json: { type: "boolean" },
      name: { type: "string" },
      replace: { type: "boolean" },
      offline: { type: "boolean" },
      provider: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
      "model-timeout": { type: "string" },
      config: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    USAGE,
  );
  if (values.help) {
    writeOut(`${ADD_HELP}\n`);
    return 0;
  }
  const words = positionals.join(" ").trim();
  if (words === "") {
    throw new CpilotError("Cannot add a callback: no words given", {
      hint: `usage: ${USAGE}\ne.g. cpilot add "run cargo check after I edit rust files"`,
    });
  }
  const dryRun = values["dry-run"] === true;
  const configPath = values.config ?? findConfig(ctx.cwd);
  if (configPath === null && !dryRun) {
    throw new CpilotError(
      `Cannot add a callback in "${ctx.cwd}": no callbacks.config.ts here or above`,
      {
        hint: "run `cpilot init` first (added callbacks are saved beside it), or pass --dry-run to only see one",
      },
    );
  }
  const { root, taken, existing } = await loadTakenNames(ctx.cwd, configPath);
  const replace = values.replace === true;
  // A --name that cannot be used fails before any model is asked.
  if (values.name !== undefined) chooseName(values.name, values.name, taken, replace);
  const provider = resolveProvider(process.env, {
    provider: values.provider,
    baseUrl: values["base-url"],
    model: values.model,
    timeoutS: values["model-timeout"],
    offline: values.offline,
  });
  const context = gatherContext(root, [...taken.config, ...taken.managed]);
  const built = await buildCallback({
    words,
    root,
    context,
    provider,
    hookTargets: taken.managed,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    progress: (line) => say(paint(line, "gray")),
  });
  const { name, renamed } = chooseName(built.callback.name, values.name, taken, replace);
  const callback = { ...built.callback, name };
  const notes = [...built.notes];
  if (renamed)
    notes.push(
      `"${built.callback.name}" is taken, so it is named "${name}" (--name or --replace to change)`,
    );
  say(renderPreview(callback, built.via, notes));
  if (values.json) writeOut(`${callbackJson(callback)}\n`);
  if (dryRun || configPath === null) {
    say("dry run: nothing saved");
    return 0;
  }
  if (!values.yes) {
    // Ctrl-C here: main.ts's first interrupt only warns; the second quits, unsaved.
    const answer = await promptOnTty(`Save "${name}" to ${MANAGED_NAME}?`, 10 * 60_000);
    if (ctx.signal?.aborted) {
      say("not saved: interrupted");
      return 130;
    }
    if (answer !== true) {
      const again = `cpilot add ${args.map(shellQuote).join(" ")} --yes`;
      say(
        answer === null
          ? `not saved: no terminal to ask on. To save it, run it again with --yes:\n  ${again}\n(or paste the JSON above into ${MANAGED_NAME}'s "callbacks" list)`
          : "not saved",
      );
      return 1;
    }
  }
  const overlap = findOverlap(
    callback.run,
    existing.filter((c) => c.name !== name),
  );
  const result = upsertManaged(root, callback, taken.config);
  say(
    `${paint(result === "created" ? "saved" : "replaced", "green")} "${name}" in ${managedPath(root)}; \`cpilot list\` shows it`,
  );
  if (overlap !== null) await offerReplace(root, name, overlap, taken.managed, values.yes === true);
  return 0;
}

/** One in the managed file is removed; one in the config file is paused (`cpilot disable`): cpilot does not edit it. */
async function offerReplace(
  root: string,
  name: string,
  overlap: { name: string; job: string },
  managed: readonly string[],
  yes: boolean,
): Promise<void> {
  const inManaged = managed.includes(overlap.name);
  const how = inManaged
    ? `removes it from ${MANAGED_NAME}`
    : "pauses it here; `cpilot enable` undoes that";
  const question = `"${overlap.name}" already runs ${overlap.job}, which "${name}" does too. Replace it? (${how})`;
  const answer = yes ? null : await promptOnTty(question, 10 * 60_000);
  if (answer !== true) {
    say(
      `note: "${overlap.name}" also runs ${overlap.job}; to keep only "${name}": ${inManaged ? `\`cpilot add\` with --replace, or delete it from ${MANAGED_NAME}` : `\`cpilot disable ${overlap.name}\``}`,
    );
    return;
  }
  if (inManaged) {
    deleteManaged(root, overlap.name);
    say(`removed "${overlap.name}" from ${MANAGED_NAME}`);
    return;
  }
  const state = readToggles(root);
  if (!state.disabled.includes(overlap.name)) state.disabled.push(overlap.name);
  writeToggles(root, state);
  say(`paused "${overlap.name}" here; remove it from the config file to drop it for everyone`);
}
