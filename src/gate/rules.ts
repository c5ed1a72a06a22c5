import { isAbsolute, resolve, sep } from "node:path";
import { compilePatterns } from "../match/pattern.ts";
import type { ResolvedGateConfig } from "../model/gate-schema.ts";
import { runtimeDirPath } from "../platform/runtime-dir.ts";
import { containPath, isInside, physicalPath } from "../util/contained-path.ts";
import { STATE_DIR } from "../util/state-layout.ts";
import { agentStateDirOf } from "./agent-state.ts";
import { cpilotProgramKind, linkedProgram } from "./cpilot-program.ts";
import { gitRunChecker } from "./git-runs.ts";
import {
  configImports,
  gatePluginFiles,
  isModuleFile,
  linkedOwnFiles,
  MAX_WALKED,
  ownConfigKind,
  WALK_CUT,
} from "./own-config.ts";
import { isCpilotPath, isGitPath, secretKind } from "./protected.ts";

export type RuleAction = "allow" | "deny" | "ask";

export interface RuleHit {
  action: RuleAction;
  source: string;
  reason: string;
  hint?: string;
  /** A person may approve it where the agent can ask one (cpilot's own config files). */
  askPerson?: true;
}

/** `hit` decides; `withoutAsk` ignores ask rules. */
export interface PathVerdict {
  ok: true;
  absolute: string;
  relative: string;
  hit: RuleHit;
  withoutAsk: RuleHit;
}

export interface PathRefusal {
  ok: false;
  absolute: string;
  source: string;
  reason: string;
  hint?: string;
}

const MAX_NAME_BYTES = 255;
const MAX_PATH_BYTES = 4096;
const SHOWN_CHARS = 160;

const encoder = new TextEncoder();
const bytes = (s: string): number => encoder.encode(s).length;

/** Control characters escaped, long ones shortened. */
export function showPath(path: string): string {
  const shown = JSON.stringify(path.length > SHOWN_CHARS ? path.slice(0, SHOWN_CHARS) : path);
  return path.length > SHOWN_CHARS ? `${shown.slice(0, -1)}…" (${path.length} characters)` : shown;
}

const ALLOW: RuleHit = { action: "allow", source: "default:allow", reason: "no rule denies it" };

const RANK: Record<RuleAction, number> = { allow: 0, ask: 1, deny: 2 };

/** Rules in the order they are read: built-in protections first, then the user's. */
type Matcher = { matches: (rel: string) => RuleHit | null };

function matchers(root: string, config: ResolvedGateConfig): Matcher[] {
  const list: Matcher[] = [];
  if (config.defaults.git) {
    list.push({
      matches: (rel) =>
        isGitPath(rel)
          ? {
              action: "deny",
              source: "default:git",
              reason:
                "it is inside a .git directory (git's own data: config, hooks, objects); change the repository with git commands the user runs, not by writing these files",
              hint: "gate.defaults.git: false turns this protection off",
            }
          : null,
    });
  }
  if (config.defaults.secrets) {
    list.push({
      matches: (rel) => {
        const kind = secretKind(rel);
        return kind === null
          ? null
          : {
              action: "deny",
              source: "default:secrets",
              reason: `it is ${kind}, which holds secrets; put placeholder values in a committed example file such as .env.example and ask the user to fill in the real file`,
              hint: 'a rule { action: "allow", pattern: "<file>" } allows one file; gate.defaults.secrets: false turns this protection off',
            };
      },
    });
  }
  if (config.defaults.cpilotDir) {
    list.push({
      matches: (rel) =>
        isCpilotPath(rel)
          ? {
              action: "deny",
              source: "default:cpilot-dir",
              reason: `it is inside ${STATE_DIR}/, where cpilot keeps its gate log and gate plugins; an agent may not change its own permissions, ask the user to make this change`,
              hint: "gate.defaults.cpilotDir: false turns this protection off",
            }
          : null,
    });
  }
  for (const rule of config.rules) {
    const compiled = compilePatterns(rule.pattern);
    const shown = typeof rule.pattern === "string" ? rule.pattern : rule.pattern.join(", ");
    const hit: RuleHit = {
      action: rule.action,
      source: `rule:${shown}`,
      reason:
        rule.reason ??
        (rule.action === "deny"
          ? `the project's gate rule "${shown}" forbids writing it; leave this file alone or ask the user to change it`
          : rule.action === "ask"
            ? `the project's gate rule "${shown}" needs a person's approval`
            : `the project's gate rule "${shown}" allows it`),
    };
    // Deny and ask rules also catch case variants (`SECRETS/x` on a case-insensitive disk).
    const patterns = typeof rule.pattern === "string" ? [rule.pattern] : rule.pattern;
    const folded =
      rule.action === "allow" ? null : compilePatterns(patterns.map((p) => p.toLowerCase()));
    list.push({
      matches: (rel) =>
        compiled.matches(rel) || folded?.matches(rel.toLowerCase()) === true ? hit : null,
    });
  }
  // Last, so no rule of the config can allow it: only the person edits what the gate obeys.
  if (config.defaults.configFiles) {
    const importedAll = configImports(root).map((p) => p.toLowerCase());
    const imported = new Set(importedAll.filter((p) => !p.endsWith("/")));
    // folders: an installed package the config imports, whole
    const importedFolders = importedAll.filter((p) => p.endsWith("/"));
    const isImported = (lower: string): boolean =>
      imported.has(lower) || importedFolders.some((f) => lower.startsWith(f) || `${lower}/` === f);
    const linked = linkedOwnFiles(root);
    const program = linkedProgram(root);
    const programFiles = new Set(program.files.map((p) => p.toLowerCase()));
    const programFolders = program.folders.map((f) => f.toLowerCase());
    const inProgram = (lower: string): boolean =>
      programFiles.has(lower) ||
      programFolders.some((f) => lower === f || lower.startsWith(`${f}/`));
    const plugins = gatePluginFiles(root, config);
    const pluginFiles = new Set(plugins.files.map((p) => p.toLowerCase()));
    // a walk cut short: what the unread files import cannot be known
    const cut = importedAll.includes(WALK_CUT) || plugins.files.includes(WALK_CUT);
    const pluginFolders = plugins.folders.map((f) => f.toLowerCase());
    // The default folder is inside .cpilot/, which says so itself unless that is turned off.
    const inPluginFolder = (rel: string): boolean =>
      pluginFolders.some((f) => rel === f || rel.startsWith(`${f}/`)) &&
      !(config.defaults.cpilotDir && isCpilotPath(rel));
    list.push({
      matches: (rel) => {
        const lower = rel.toLowerCase();
        const kind =
          ownConfigKind(rel) ??
          cpilotProgramKind(rel) ??
          (inProgram(lower)
            ? `${cpilotProgramKind("node_modules/cpilot")}, through a symlink`
            : null) ??
          linked.get(lower) ??
          (isImported(lower) ? "a file cpilot's config imports" : null) ??
          (cut && isModuleFile(lower)
            ? `a module cpilot's config may import: it imports more than ${MAX_WALKED} files, past which cpilot does not look, so every script file is protected`
            : null) ??
          (pluginFiles.has(lower) || inPluginFolder(lower)
            ? "a gate plugin (or a file one runs), which decides what the gate allows"
            : null);
        return kind === null
          ? null
          : {
              action: "deny",
              source: "default:config-files",
              reason: `it is ${kind}; an agent may not change what cpilot's gate and checks obey. Tell the user the change you want and let them make it`,
              hint: "the user edits this file by hand; gate.defaults.configFiles: false lets agents write it",
              askPerson: true,
            };
      },
    });
  }
  // Last too: what git runs at the person's commands is theirs, whatever a rule allows.
  if (config.defaults.git) list.push(gitRunsMatcher(root));
  return list;
}

/** Including any `.husky` folder: its hooks run once husky is installed, as on a teammate's clone. */
function gitRunsMatcher(root: string): Matcher {
  const check = gitRunChecker(root);
  return {
    matches: (rel) => {
      // .git/ says so itself, and a rule of the person's may allow a file there
      if (isGitPath(rel)) return null;
      const kind = check(rel);
      return kind === null
        ? null
        : {
            action: "deny",
            source: "default:githooks",
            reason: `it is ${kind}: what git runs at the user's own commits and checkouts is theirs to change; tell the user the change you want and let them make it`,
            hint: "the user edits git hooks by hand; gate.defaults.git: false lets agents write them",
            askPerson: true,
          };
    },
  };
}

/** Last matching rule wins, over every spelling; the strictest spelling wins. */
function decide(list: Matcher[], spellings: string[]): { hit: RuleHit; withoutAsk: RuleHit } {
  let hit: RuleHit | null = null;
  let withoutAsk: RuleHit | null = null;
  for (const rel of spellings) {
    let last = ALLOW;
    let lastNotAsk = ALLOW;
    for (const m of list) {
      const h = m.matches(rel);
      if (h === null) continue;
      last = h;
      if (h.action !== "ask") lastNotAsk = h;
    }
    if (hit === null || RANK[last.action] > RANK[hit.action]) hit = last;
    if (withoutAsk === null || RANK[lastNotAsk.action] > RANK[withoutAsk.action]) {
      withoutAsk = lastNotAsk;
    }
  }
  return { hit: hit ?? ALLOW, withoutAsk: withoutAsk ?? ALLOW };
}

/** Hard limits first (NUL, length, root, symlinks); the rules see the path as written (NFC, NFKC) and where it lands. */
export function checkPath(
  root: string,
  path: string,
  config: ResolvedGateConfig,
  stateDirs: readonly string[] = [],
): PathVerdict | PathRefusal {
  const absolute = path.includes("\0") ? path : resolve(root, path);
  const refuse = (source: string, reason: string, hint?: string): PathRefusal => ({
    ok: false,
    absolute,
    source,
    reason: `Cannot write ${showPath(path)}: ${reason}`,
    ...(hint === undefined ? {} : { hint }),
  });
  if (path.includes("\0")) {
    return refuse(
      "default:nul-byte",
      "the path contains a NUL byte, which no file name can hold; use a plain file name",
    );
  }
  if (path.trim() === "")
    return refuse("default:empty-path", "the path is empty; give the file's path");
  if (config.defaults.longNames) {
    const long = path.split(/[/\\]/).find((s) => bytes(s) > MAX_NAME_BYTES);
    if (long !== undefined || bytes(absolute) > MAX_PATH_BYTES) {
      return refuse(
        "default:long-name",
        long !== undefined
          ? `one name in it is ${bytes(long)} bytes long, over the ${MAX_NAME_BYTES}-byte limit of file systems; use a shorter name`
          : `it is ${bytes(absolute)} bytes long, over the ${MAX_PATH_BYTES}-byte path limit; use a shorter path`,
        "gate.defaults.longNames: false turns this check off",
      );
    }
  }
  if (inPrivateFolder(path, root)) {
    return refuse(
      "default:cpilot-private",
      `it is in cpilot's private folder (${runtimeDirPath(process.env)}), where its records of the agent's session are kept; leave them alone`,
    );
  }
  const contained = containPath(root, path);
  let lexical: string;
  let real: string;
  let asWritten: string;
  if (contained.ok) {
    lexical = contained.lexical;
    real = contained.relative;
    asWritten = contained.asWritten;
  } else {
    const asGiven = isAbsolute(path) ? path : `${resolve(root)}${sep}${path}`;
    const stateDir =
      config.defaults.agentState && contained.kind !== "loop"
        ? agentStateDirOf(asGiven, stateDirs)
        : null;
    if (stateDir !== null) {
      const hit: RuleHit = {
        action: "allow",
        source: "default:agent-state",
        reason: `it is in ${stateDir}, where the agent keeps its own plans and notes`,
      };
      return { ok: true, absolute, relative: "", hit, withoutAsk: hit };
    }
    const symlink = contained.kind === "symlink" || contained.kind === "loop";
    if (symlink ? config.defaults.symlinkEscape : config.defaults.outsideRoot) {
      return refuse(
        symlink ? "default:symlink-escape" : "default:outside-root",
        `${contained.reason}; write only to files inside ${root} (relative paths are taken from there)`,
        symlink
          ? "gate.defaults.symlinkEscape: false turns this protection off"
          : "gate.defaults.outsideRoot: false turns this protection off",
      );
    }
    // That protection is off: nothing relative to match rules against.
    return {
      ok: true,
      absolute,
      relative: "",
      hit: { ...ALLOW, reason: "it is outside the project root, where no rules apply" },
      withoutAsk: ALLOW,
    };
  }
  if (lexical === "") {
    return refuse(
      "default:empty-path",
      "it names the project root itself, not a file; give a file's path",
    );
  }
  // Where the kernel takes the path as written counts too: `hk/../hooks/x` with `hk` a link
  // to .git/hooks is .git/hooks/x, although its tidied form is hooks/x.
  const spellings = [
    ...new Set([
      lexical.normalize("NFC"),
      lexical.normalize("NFKC"),
      real.normalize("NFC"),
      asWritten.normalize("NFC"),
    ]),
  ];
  const { hit, withoutAsk } = decide(matchers(resolve(root), config), spellings);
  return { ok: true, absolute, relative: lexical, hit, withoutAsk };
}

/** Whatever `gate.defaults` says: those records decide whose a change is. */
function inPrivateFolder(path: string, root: string): boolean {
  if (process.getuid === undefined) return false;
  const base = physicalPath(runtimeDirPath(process.env)) ?? runtimeDirPath(process.env);
  // A project kept inside it (a test's, say) is written like any other.
  if (isInside(base, physicalPath(resolve(root)) ?? resolve(root))) return false;
  const asGiven = isAbsolute(path) ? path : `${resolve(root)}${sep}${path}`;
  return [physicalPath(asGiven), physicalPath(resolve(asGiven))].some(
    (landing) => landing !== null && isInside(base, landing),
  );
}
