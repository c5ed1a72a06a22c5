import {
  appendFileSync,
  existsSync,
  lstatSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { CONFIG_NAMES } from "../config/find.ts";
import { TYPES_SOURCES } from "../config/types-source.ts";
import { checkRun } from "../doctor/callback-command.ts";
import { promptOnTty } from "../gate/ask.ts";
import { detectProject } from "../init/detect.ts";
import { chooseFormat } from "../init/format-choice.ts";
import { ownFile } from "../init/own-tsconfig.ts";
import { renderPlan } from "../init/plan.ts";
import { ProjectFiles } from "../init/project-files.ts";
import { proveFormatters } from "../init/prove-formatter.ts";
import { renderJson, renderTs, renderYaml } from "../init/render.ts";
import type { CallbackSpec, Detection } from "../init/spec.ts";
import { detectStyle } from "../init/style.ts";
import { gitRoot } from "../match/git-root.ts";
import { say } from "../ui/style.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { CpilotError, HelpRequest } from "../util/errors.ts";
import { STATE_DIR } from "../util/state-layout.ts";
import { parseFlags } from "./_common.ts";

const USAGE =
  "cpilot init [--from lefthook|lint-staged|pre-commit|husky] [--yes] [--dry-run] [--format ts|json|yaml] [--types] [--force] [--dir DIR]";

export const INIT_HELP = `usage: ${USAGE}

Read the project (package.json scripts, tool configs, Cargo.toml, pyproject.toml, go.mod,
Makefile) and propose callbacks for what it already runs, scoped as it scopes them, with its
local binaries. Shows the plan, then writes the config after you say yes.

  --from TOOL      turn that hook runner's config into callbacks instead: lefthook,
                   lint-staged, pre-commit or husky (globs, commands, {staged_files},
                   excludes); the plan says what could not be carried over
  --yes, -y        write without asking (for scripts; without a terminal it is required)
  --dry-run        only show the plan
  --format F       ts, json or yaml (default: ts for TypeScript projects whose checks
                   leave a root config alone, else json)
  --types          also write cpilot-env.d.ts, types for callbacks.config.ts when cpilot
                   is not in node_modules
  --force          replace an existing config
  --dir DIR        the project folder (default: here)`;

/** Ambient declarations so editors type `import ... from "cpilot"` with only the binary. */
export function ambientDeclarations(): string {
  const body = TYPES_SOURCES.join("\n")
    .replace(/^import[^\n]*\n/gm, "")
    .split("\n")
    .map((l) => (l === "" ? l : `  ${l}`))
    .join("\n");
  return `// Written by \`cpilot init\`: types for callbacks.config.ts when cpilot is not in node_modules.
declare module "cpilot" {
${body}
  // The gate section is typed fully when cpilot is installed from npm.
  type GateConfig = Record<string, unknown>;
  export function defineConfig<const T extends CpilotConfig>(config: T): T;
  export function defineCallback<const T extends CallbackDef>(callback: T): T;
}
`;
}

const EXAMPLE: CallbackSpec = {
  name: "example",
  description: "replace with your checker",
  pattern: "*.txt",
  run: 'echo "changed: $CP_CHANGED_FILES"',
  timeout: 10,
};

/** Propose callbacks for what the project runs, show them, write on yes. */
export async function initCommand(args: string[], options: { cwd: string }): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) throw new HelpRequest(INIT_HELP);
  const { values } = parseFlags(
    args,
    {
      yes: { type: "boolean", short: "y" },
      "dry-run": { type: "boolean" },
      format: { type: "string" },
      types: { type: "boolean" },
      force: { type: "boolean" },
      dir: { type: "string" },
      from: { type: "string" },
    },
    USAGE,
  );
  const root = resolve(options.cwd, values.dir ?? ".");
  if (values.format !== undefined && !["ts", "json", "yaml"].includes(values.format)) {
    throw new CpilotError(`Cannot write a config as "${values.format}": unknown format`, {
      hint: "--format ts, --format json or --format yaml",
    });
  }
  const existing = CONFIG_NAMES.map((n) => join(root, n)).find((p) => existsSync(p));
  if (existing && !values.force) {
    throw new CpilotError(`Cannot write a config in "${root}": ${existing} exists`, {
      hint: "edit it, or pass --force to replace it",
    });
  }
  const detection =
    values.from !== undefined ? await migrateFrom(values.from, root) : provenDetection(root);
  const style = detectStyle(new ProjectFiles(root));
  const choice =
    values.format !== undefined
      ? { format: values.format, why: "--format" }
      : chooseFormat(root, detection.proposals);
  const callbacks =
    detection.proposals.length > 0 ? detection.proposals.map((p) => p.callback) : [EXAMPLE];
  const file = `callbacks.config.${choice.format}`;
  const extras = detection.resyncTree ? { resyncTree: true } : {};
  const found = [...new Set(detection.proposals.map((p) => p.why))];
  const text =
    choice.format === "ts"
      ? renderTs(
          callbacks,
          style,
          [
            "Written by `cpilot init` from what this project runs. `run`: an argv array",
            "({files} expands to the changed files, no shell) or a bash string. Exit 0 passes.",
            ...(detection.resyncTree
              ? ['resync "tree": rustfmt also rewrites child modules; report those rewrites too.']
              : []),
          ],
          extras,
        )
      : choice.format === "yaml"
        ? await renderYaml(callbacks, style, extras)
        : renderJson(callbacks, style, extras);
  say(
    renderPlan(
      root,
      { ...detection, notes: [...detection.notes, ...missingTools(callbacks, root)] },
      style,
      file,
      choice.why,
    ),
  );
  if (found.length === 0) say("  found no known toolchain: the config holds an example to edit");
  if (values["dry-run"]) {
    say("dry run: nothing written");
    return 0;
  }
  if (!values.yes) {
    const answer = await promptOnTty(`Write ${file}?`, 10 * 60_000);
    if (answer === null) {
      throw new CpilotError(`Cannot write "${file}" without a yes: no terminal to ask on`, {
        hint: "pass --yes to write the plan above",
      });
    }
    if (!answer) {
      say("nothing written");
      return 1;
    }
  }
  // --force replaces the config: one of another format would win over the new one.
  for (const other of CONFIG_NAMES.map((n) => join(root, n)))
    if (other !== join(root, file) && existsSync(other)) {
      rmSync(other);
      say(`removed ${other} (replaced by ${file})`);
    }
  writeFileSync(join(root, file), text);
  for (const extra of detection.files ?? []) {
    if (sameRegularFile(join(root, extra.path), extra.text)) continue;
    // never through a symlink a hostile tree placed there: the file is replaced, not followed
    writeFileAtomic(join(root, extra.path), extra.text);
    say(
      `wrote ${join(root, extra.path)} (its type check reads the packages it uses from their source)`,
    );
  }
  for (const path of detection.remove ?? []) {
    // read again: only what init wrote, as it wrote it, goes
    if (ownFile(join(root, path)) !== true) continue;
    rmSync(join(root, path));
    say(
      `removed ${join(root, path)} (an earlier cpilot init wrote it; this plan has no use for it)`,
    );
  }
  say(
    `wrote ${join(root, file)} with ${callbacks.length} callback${callbacks.length === 1 ? "" : "s"}`,
  );
  if (choice.format === "ts" && !existsSync(join(root, "node_modules", "cpilot"))) {
    if (values.types) {
      writeFileSync(join(root, "cpilot-env.d.ts"), ambientDeclarations());
      say(`wrote ${join(root, "cpilot-env.d.ts")} so editors know the config's types`);
    } else
      say(
        "its types: add cpilot as a devDependency, or `cpilot init --types --force` for a cpilot-env.d.ts",
      );
  }
  ignoreStateDir(root);
  say(
    "next: `cpilot check --all` runs them once and records what is already there (then an agent is told what its edits break, even in files it did not touch); `cpilot install claude` wires them into Claude Code",
  );
  return 0;
}

/** Said before the first check fails on it with exit 127. */
function missingTools(callbacks: readonly CallbackSpec[], root: string): string[] {
  const lines: string[] = [];
  for (const c of callbacks) {
    const check = checkRun(
      { name: c.name, run: c.run, cwd: join(root, c.cwd ?? ".") },
      process.env,
    );
    if (check.status === "missing")
      lines.push(
        `${c.name}: ${check.detail} here; the callback fails until it is installed (\`cpilot doctor\` checks)`,
      );
  }
  return lines;
}

/** Each formatter proven in check mode on the project's files first. */
function provenDetection(root: string): Detection {
  const found = detectProject(root);
  const proven = proveFormatters(root, found.proposals);
  return { ...found, proposals: proven.proposals, notes: [...found.notes, ...proven.notes] };
}

function ignoreStateDir(root: string): void {
  const top = gitRoot(root);
  if (top === null) return;
  const ignorePath = join(top, ".gitignore");
  const current = existsSync(ignorePath) ? readFileSync(ignorePath, "utf8") : "";
  const listed = current.split("\n").some((line) => /^\/?(.*?)\/?$/.exec(line)?.[1] === STATE_DIR);
  if (listed) return;
  appendFileSync(
    ignorePath,
    `${current === "" || current.endsWith("\n") ? "" : "\n"}${STATE_DIR}/\n`,
  );
  say(`added ${STATE_DIR}/ (run logs and local state) to .gitignore`);
}

/** An error when the hook runner's config is not here. */
async function migrateFrom(source: string, root: string) {
  const { migrate, SOURCES } = await import("../init/migrate/index.ts");
  if (!(source in SOURCES)) {
    const { didYouMean } = await import("../util/edit-distance.ts");
    throw new CpilotError(
      `Cannot migrate from "${source}": cpilot reads ${Object.keys(SOURCES).join(", ")}`,
      {
        hint: didYouMean(source, Object.keys(SOURCES)) || `usage: ${USAGE}`,
      },
    );
  }
  const result = migrate(source as keyof typeof SOURCES, root);
  if (result.found === null) {
    throw new CpilotError(`Cannot migrate from ${source} in "${root}": no ${source} config here`, {
      hint: "run it in the folder that holds the config, or pass --dir DIR",
    });
  }
  return result;
}

/** Already holds `text`, and not through a link. */
function sameRegularFile(path: string, text: string): boolean {
  try {
    return lstatSync(path).isFile() && readFileSync(path, "utf8") === text;
  } catch {
    return false;
  }
}
