/**
 * `cpilot doctor --prove <agent>`: plays the agent's side of a write through its installed
 * hook command in a throwaway project (no agent, no model, nothing sent), and reads each
 * answer as that agent hands it to the model. It proves the command starts here and
 * answers in the channel that reaches the model; the agent's own settings and version are
 * not part of it.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Agent, DeliveryProof, HookPlace } from "../agents/contract.ts";
import { NEAREST_NPM_SHIM } from "../platform/nearest-npm-shim.ts";

/** What the throwaway project's checks print, so their text is found in what the model gets. */
export const FAIL_MARK = "cpilot-proof: this check fails on purpose";
export const GATE_MARK = "cpilot-proof: proof-locked/ is read-only";

/** Its check fails on purpose, so the stop gate would hold every stop: the proof lets it stop. */
export const PROOF_CONFIG = {
  agent: { maxStopBlocks: 0 },
  callbacks: [
    {
      name: "proof-check",
      pattern: "proof/*.txt",
      timeout: 60,
      run: `echo '${FAIL_MARK}'; exit 1`,
    },
    {
      name: "proof-format",
      pattern: "proof/*.fmt",
      timeout: 60,
      run: 'for f in $CP_CHANGED_FILES; do tr a-z A-Z < "$f" > "$f.tmp" && mv "$f.tmp" "$f"; done',
    },
  ],
  gate: { rules: [{ action: "deny", pattern: "proof-locked/**", reason: GATE_MARK }] },
};

export interface ProofCheck {
  readonly what: string;
  readonly ok: boolean;
  /** First line of what the model would read, or why nothing reaches it. */
  readonly detail: string;
}

export interface ProofReport {
  readonly agent: string;
  /** "live": the agent's CLI ran on cpilot's model; "hooks": its calls were played. */
  readonly level?: "live" | "hooks";
  readonly version?: string | null;
  readonly notes?: readonly string[];
  readonly displayName: string;
  readonly command: string | null;
  readonly place: string | null;
  readonly checks: readonly ProofCheck[];
  readonly problems: readonly string[];
}

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}

/**
 * Only the forms cpilot writes. A hook file is project content: a line with anything else
 * (`evil; cpilot hook claude` also counts as wired) is never run by --prove.
 */
export function plainCpilotCommand(command: string, agent: string): boolean {
  const program = [
    "npx --no-install cpilot",
    NEAREST_NPM_SHIM.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    '"\\$[A-Za-z_][A-Za-z0-9_]*"/node_modules/(?:cpilot/bin/cpilot\\.sh|\\.bin/cpilot)',
    "'[^']*/cpilot(?:\\.exe|\\.sh)?'",
    "(?:[A-Za-z0-9_./+-]*/)?cpilot(?:\\.exe|\\.sh)?",
  ].join("|");
  return new RegExp(`^\\s*(?:${program}) hook ${agent}\\s*$`).test(command);
}

function runnable(command: string, root: string): string {
  return command.startsWith("./") ? `${root}/${command.slice(2)}` : command;
}

export async function proveDelivery(
  agent: Agent,
  root: string,
  home: string,
  env: NodeJS.ProcessEnv,
): Promise<ProofReport> {
  const empty = { agent: agent.name, displayName: agent.displayName, checks: [] };
  const places = await agent.hookPlaces(root, home, env);
  const place: HookPlace | undefined = places.find((p) => p.wired && p.commands.length > 0);
  if (place === undefined)
    return {
      ...empty,
      command: null,
      place: null,
      problems: [
        `cpilot is not wired into ${agent.displayName} here: run \`cpilot install ${agent.name}\``,
      ],
    };
  const command = place.commands[0] as string;
  if (!plainCpilotCommand(command, agent.name))
    return {
      ...empty,
      command,
      place: place.path,
      problems: [
        `the hook command is not just cpilot (${command}): --prove runs only a plain \`cpilot hook ${agent.name}\` command line, so check this one by hand`,
      ],
    };
  if (agent.proof === undefined)
    return {
      ...empty,
      command,
      place: place.path,
      problems: [
        `cpilot cannot play ${agent.displayName}'s calls without ${agent.displayName} itself (no delivery proof for it yet); its hook tests are at the protocol level (docs/agents.md)`,
      ],
    };
  const proof = await agent.proof();
  const project = realpathSync(mkdtempSync(join(tmpdir(), "cpilot-proof-")));
  try {
    spawnSync("git", ["init", "-q"], { cwd: project });
    writeFileSync(
      join(project, "callbacks.config.json"),
      `${JSON.stringify(PROOF_CONFIG, null, 2)}\n`,
    );
    mkdirSync(join(project, "proof"));
    // The npm route's command names the project's own node_modules through the agent's
    // project variable (`"$CLAUDE_PROJECT_DIR"/node_modules/.bin/cpilot`): the throwaway
    // project lends the real one's, so the command run is the one install wrote.
    if (/\/node_modules\//.test(command) && existsSync(join(root, "node_modules")))
      symlinkSync(join(root, "node_modules"), join(project, "node_modules"));
    const hookEnv: NodeJS.ProcessEnv = { ...env };
    delete hookEnv.AI_AGENT; // a Claude Code parent's marker would defer the callbacks to a batch event
    if (agent.projectDirVar) hookEnv[agent.projectDirVar] = project;
    const call = (payload: Record<string, unknown>) => {
      const r = spawnSync("sh", ["-c", runnable(command, root)], {
        cwd: project,
        env: hookEnv,
        input: JSON.stringify(payload),
        encoding: "utf8",
        timeout: 180_000,
      });
      return { code: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
    };
    const checks = [
      check(
        proof,
        call,
        project,
        "a failing check reaches the model",
        "proof/check.txt",
        "x\n",
        "after",
        (t) => t.includes(FAIL_MARK),
      ),
      check(
        proof,
        call,
        project,
        "a formatter's rewrite reaches it",
        "proof/style.fmt",
        "hello\n",
        "after",
        (t) => t.includes("HELLO"),
      ),
      check(
        proof,
        call,
        project,
        "a gate refusal reaches it",
        "proof-locked/x.txt",
        "x\n",
        "before",
        (t) => t.includes(GATE_MARK),
      ),
    ];
    if (existsSync(join(project, "proof-locked", "x.txt")))
      checks.push({ what: "the refused file is not written", ok: false, detail: "it was written" });
    const problems = place.inactive
      ? [`${place.inactive.reason}; to fix it: \`${place.inactive.step}\``]
      : [];
    return { ...empty, command, place: place.path, checks, problems };
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

function check(
  proof: DeliveryProof,
  call: (payload: Record<string, unknown>) => {
    code: number | null;
    stdout: string;
    stderr: string;
  },
  project: string,
  what: string,
  rel: string,
  content: string,
  when: "before" | "after",
  found: (text: string) => boolean,
): ProofCheck {
  const file = join(project, rel);
  if (when === "after") writeFileSync(file, content);
  const payload =
    when === "after"
      ? proof.afterWrite(project, file, content)
      : proof.beforeWrite(project, file, content);
  const answer = call(payload);
  const text = proof.modelText(answer, when);
  if (text !== null && found(text)) return { what, ok: true, detail: firstLine(text) };
  const why =
    text !== null
      ? `the model would read something else: ${firstLine(text)}`
      : answer.code === 0
        ? `nothing in the channel the agent hands the model (stdout: ${firstLine(answer.stdout) || "empty"})`
        : `the hook command exited ${answer.code ?? "by a signal"}: ${firstLine(answer.stderr) || "no message"}`;
  return { what, ok: false, detail: why };
}

export function renderProof(report: ProofReport): string {
  const lines =
    report.level === "live"
      ? [
          `cpilot doctor --prove ${report.agent}: ${report.displayName} ${report.version ?? "(version unknown)"} ran headless in a throwaway project with this machine's settings, against cpilot's scripted model on 127.0.0.1 (no tokens, nothing sent)`,
        ]
      : [
          `cpilot doctor --prove ${report.agent}: hook-level proof only: ${report.displayName}'s calls played through its installed hook command, in a throwaway project (no agent, no model, nothing sent)`,
        ];
  for (const n of report.notes ?? []) lines.push(`  note: ${n}`);
  if (report.command !== null) lines.push(`  hook command: ${report.command} (${report.place})`);
  for (const c of report.checks) lines.push(`  ${c.ok ? "✓" : "✗"} ${c.what}: ${c.detail}`);
  for (const p of report.problems) lines.push(`  ! ${p}`);
  return lines.join("\n");
}

/** True when every check passed and nothing stops the agent from running the hooks. */
export function proofHolds(report: ProofReport): boolean {
  return (
    report.problems.length === 0 && report.checks.length > 0 && report.checks.every((c) => c.ok)
  );
}
