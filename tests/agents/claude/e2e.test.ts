/**
 * cpilot wired into the real Claude Code CLI (2.1.330) with `cpilot install claude --local`,
 * driven by the fake Messages API: what the model reads in its next request, and what is on disk.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { chmod, mkdir, readFile } from "node:fs/promises";
import { provedTest } from "../../support/agent-matrix.ts";
import type { ClaudeRun } from "../../support/claude-cli.ts";
import {
  type ClaudeProject,
  claudeProjects,
  TODO_LINT as lint,
} from "../../support/claude-project.ts";
import { conversationText, type Turn, textOf, toolResults } from "../../support/fake-anthropic.ts";

const CLAUDE = { name: "claude", version: "2.1.332" };

const TIMEOUT = 60_000;
const timings: string[] = [];
afterAll(() => console.log(`claude e2e runs: ${timings.join(", ")}`));
const claude = claudeProjects();
const setup = claude.setup;

const write = (file_path: string, content: string): Turn[number] => ({
  type: "tool_use",
  name: "Write",
  input: { file_path, content },
});
const read = (file_path: string): Turn[number] => ({
  type: "tool_use",
  name: "Read",
  input: { file_path },
});
const edit = (file_path: string, old_string: string, new_string: string): Turn[number] => ({
  type: "tool_use",
  name: "Edit",
  input: { file_path, old_string, new_string },
});
const say = (text: string): Turn => [{ type: "text", text }];

async function run(name: string, ctx: ClaudeProject): Promise<ClaudeRun> {
  const result = await claude.run(ctx);
  timings.push(`${name} ${result.durationMs} ms`);
  return result;
}

provedTest(
  CLAUDE,
  ["failure"],
  "a failed blocking callback reaches the model after the edit: name, file, exit words, tail, run id",
  async () => {
    const ctx = await setup({ callbacks: [lint] }, (p) => [
      [write(p.path("a.ts"), "export const a = 1; // TODO remove\n")],
      [write(p.path("a.ts"), "export const a = 1;\n")],
      say("fixed"),
    ]);
    await run("failure", ctx);
    const seen = textOf(ctx.api.turns()[1]!);
    expect(seen).toContain("PostToolUse:Write hook blocking error");
    expect(seen).toContain(
      "✗ 'lint' failed on a.ts: exit 1 (failed)\n  1:export const a = 1; // TODO remove\n  lint: TODO found",
    );
    const id = /run ([a-z0-9]+-[a-f0-9]+), full log: cpilot logs \1/.exec(seen)?.[1];
    expect(existsSync(ctx.project.path(`.cpilot/runs/${id}.log`))).toBe(true);
    // The fix passes quietly (no successMessage): nothing more is said, and the stop is not blocked.
    expect(textOf(ctx.api.turns()[2]!)).not.toContain("lint");
    expect(ctx.api.turns()).toHaveLength(3);
  },
  TIMEOUT,
);

test(
  "the callbacks table reaches the model once per session; a success message after an edit",
  async () => {
    const ok = {
      ...lint,
      name: "types",
      description: "tsc --noEmit",
      run: "true",
      successMessage: "types OK",
    };
    const ctx = await setup({ callbacks: [ok] }, (p) => [
      [write(p.path("a.ts"), "x\n")],
      [write(p.path("b.ts"), "y\n")],
      say("done"),
    ]);
    await run("panel", ctx);
    const [first, second, third] = ctx.api.turns();
    expect(conversationText(first!)).toContain(
      "| types | *.ts | blocking, per file | tsc --noEmit |",
    );
    expect(textOf(second!)).toContain(
      "PostToolUse:Write hook additional context: ✓ 'types' passed on a.ts: types OK",
    );
    const all = conversationText(third!);
    expect(all.split("cpilot runs these checks").length - 1).toBe(1);
    expect(all).toContain("✓ 'types' passed on b.ts: types OK");
  },
  TIMEOUT,
);

test(
  "a monorepo's 80 per-package checks: the whole table still reaches the model, not a preview of it",
  async () => {
    // what `init` writes for a workspace: one type check per package, long patterns each
    const callbacks = Array.from({ length: 80 }, (_, i) => ({
      name: `typecheck-packages-p${i}`,
      description: "TypeScript types",
      pattern: ["ts", "tsx", "mts", "cts"].map((ext) => `packages/p${i}/src/**/*.${ext}`),
      cwd: `packages/p${i}`,
      run: "true",
      timeout: 20,
    }));
    const ctx = await setup({ callbacks }, () => [say("done")]);
    await run("big panel", ctx);
    const first = conversationText(ctx.api.turns()[0]!);
    expect(first).not.toContain("Output too large");
    expect(first).toContain(
      "| typecheck-… (80 callbacks) | in 80 folders: packages/p0, packages/p1, packages/p2, … | blocking, per batch | TypeScript types |",
    );
    expect(first).toContain("A failed blocking check must be fixed before you finish");
  },
  TIMEOUT,
);

test(
  "30 checks failing with 25 long lines each: every one reaches the model, not a preview of the first",
  async () => {
    const callbacks = Array.from({ length: 30 }, (_, i) => ({
      name: `c${i}`,
      pattern: "*.ts",
      timeout: 30,
      run: `for n in $(seq 1 25); do echo "a.ts:$n:1 error c${i}: ${"word ".repeat(18)}"; done; exit 1`,
    }));
    const ctx = await setup({ callbacks }, (p) => [[write(p.path("a.ts"), "x\n")], say("done")]);
    await run("30 failing", ctx);
    const afterWrite = textOf(ctx.api.turns()[1]!);
    expect(afterWrite).not.toContain("Output too large");
    for (let i = 0; i < 30; i++) expect(afterWrite).toContain(`✗ 'c${i}' failed on a.ts`);
    expect(afterWrite).toContain("more lines in the full log");
  },
  TIMEOUT,
);

provedTest(
  CLAUDE,
  ["resync"],
  "a formatter's rewrite comes back as a diff, and the model's next Edit against it lands",
  async () => {
    const fmt = {
      name: "fmt",
      pattern: "*.ts",
      run: `sed -i 's/  */ /g; s/"/'"'"'/g' "$CP_CHANGED_FILE"`,
      timeout: 20,
      per: "file",
      successMessage: "silent",
    };
    const ctx = await setup({ callbacks: [fmt] }, (p) => [
      [read(p.path("a.ts"))],
      [edit(p.path("a.ts"), 'const a  =  "one";', 'const a  =  "uno";')],
      // Written against the formatted text the diff showed, as a model would.
      [edit(p.path("a.ts"), "const a = 'uno';", "const a = 'eins';")],
      say("done"),
    ]);
    await ctx.project.write("a.ts", 'const a  =  "one";\n');
    ctx.project.commit("init");
    await run("resync", ctx);
    const seen = textOf(ctx.api.turns()[2]!);
    expect(seen).toContain("~ a callback rewrote a.ts after your edit");
    expect(seen).toContain(`-const a  =  "uno";\n+const a = 'uno';`);
    expect(toolResults(ctx.api.turns()[3]!)[0]).not.toMatchObject({ is_error: true });
    expect(await readFile(ctx.project.path("a.ts"), "utf8")).toBe("const a = 'eins';\n");
  },
  TIMEOUT,
);

test(
  "a parallel batch: the once-per-batch callback runs once with both files, through PostToolBatch",
  async () => {
    const types = {
      name: "types",
      pattern: "*.ts",
      run: 'echo "checked: $(echo $CP_CHANGED_FILES)"; exit 1',
      timeout: 20,
    };
    const ctx = await setup({ callbacks: [types] }, (p) => [
      [write(p.path("a.ts"), "a\n"), write(p.path("b.ts"), "b\n")],
      say("done"),
    ]);
    const result = await run("batch", ctx);
    const seen = textOf(ctx.api.turns()[1]!);
    expect(seen).toContain(
      "PostToolBatch hook additional context: cpilot: checks failed after your last edits",
    );
    expect(seen).toContain(
      "✗ 'types' failed on a.ts and b.ts: exit 1 (failed)\n  checked: a.ts b.ts",
    );
    // Once for the batch, not once per Write.
    expect(seen.match(/'types' failed/g)).toHaveLength(1);
    expect(result.exitCode).toBe(0);
  },
  TIMEOUT,
);

/** A Bash tool call: the model runs `command` and waits for it. */
const bash = (command: string): Turn => [
  { type: "tool_use", name: "Bash", input: { command, description: "wait" } },
];

/** Shell: wait until `test` holds (each step waits on something the runs do, never on a clock). */
const until = (test: string) => `until ${test}; do sleep 0.05; done`;

/** Shell: a background result naming `text` waits in the inbox for the agent's next hook call. */
const posted = (text: string) => `grep -qsF '${text}' .cpilot/inbox/*/*.json`;

test(
  "a background callback: started at once, its failure delivered at a later hook call",
  async () => {
    const e2e = {
      name: "e2e",
      pattern: "*.ts",
      // held until the Bash call releases it: it cannot finish within the hook call that started it
      run: `${until("[ -e release ]")}; echo '3 specs, 1 failure'; exit 1`,
      blocking: false,
      per: "file",
    };
    const ctx = await setup({ callbacks: [e2e] }, (p) => [
      [write(p.path("a.ts"), "a\n")],
      bash(`touch release; ${until(posted("failed on a.ts"))}`),
      say("done"),
    ]);
    await run("background", ctx);
    const first = textOf(ctx.api.turns()[1]!);
    const id = /'e2e' started in background on a\.ts, run ([a-z0-9]+-[a-f0-9]+)/.exec(first)?.[1];
    expect(id).toBeDefined();
    const later = textOf(ctx.api.turns()[2]!);
    expect(later).toContain(
      `✗ 'e2e' (background run ${id}) failed on a.ts: exit 1 (failed)\n  3 specs, 1 failure`,
    );
    expect(conversationText(ctx.api.turns()[2]!).split(`background run ${id}`).length - 1).toBe(1);
  },
  TIMEOUT,
);

provedTest(
  CLAUDE,
  ["stopGate"],
  "Stop is blocked while a check fails, at most agent.maxStopBlocks times",
  async () => {
    const ctx = await setup({ agent: { maxStopBlocks: 2 }, callbacks: [lint] }, (p) => [
      [write(p.path("a.ts"), "// TODO\n")],
      say("done"),
      say("done, really"),
      say("giving up"),
    ]);
    const result = await run("stop", ctx);
    const turns = ctx.api.turns();
    expect(turns).toHaveLength(4);
    expect(textOf(turns[2]!)).toContain(
      "Stop hook feedback:\ncpilot: do not stop yet: this needs fixing first (reminder 1 of at most 2):",
    );
    expect(textOf(turns[2]!)).toContain("✗ 'lint' failed on a.ts");
    expect(textOf(turns[3]!)).toContain("(reminder 2 of at most 2)");
    expect(result.events.findLast((e) => e.type === "result")).toMatchObject({
      result: "giving up",
    });
  },
  TIMEOUT,
);

test(
  "context updates in the final message are applied to .context/ at Stop",
  async () => {
    const ctx = await setup({ callbacks: [] }, () => [
      say(
        'Done.\n<context-update file="TASKS.md" action="add" section="Open">\n- ship the hook\n</context-update>',
      ),
    ]);
    await mkdir(ctx.project.path(".context"));
    await ctx.project.write(".context/TASKS.md", "# Tasks\n\n## Open\n\n- first\n");
    await run("context", ctx);
    expect(await readFile(ctx.project.path(".context/TASKS.md"), "utf8")).toContain(
      "- ship the hook",
    );
    expect(ctx.api.turns()).toHaveLength(1);
  },
  TIMEOUT,
);

provedTest(
  CLAUDE,
  ["refusal"],
  "the write gate: a denied Write leaves no file and the model reads why; a plugin's change lands via updatedInput",
  async () => {
    const config = {
      callbacks: [],
      gate: { plugins: [{ command: ["./header.sh"], name: "header" }] },
    };
    const ctx = await setup(config, (p) => [
      [write(p.path(".env"), "SECRET=1\n")],
      [write(p.path("src.ts"), "export {};\n")],
      say("done"),
    ]);
    const plugin = await ctx.project.write(
      "header.sh",
      `#!/bin/bash\ninput=$(cat)\ncase "$input" in *'"path":"src.ts"'*) echo '{"decision":"modify","content":"// (c) us\\nexport {};\\n"}';; *) echo '{"decision":"allow"}';; esac\n`,
    );
    await chmod(plugin, 0o755);
    await run("gate", ctx);
    expect(existsSync(ctx.project.path(".env"))).toBe(false);
    const denied = toolResults(ctx.api.turns()[1]!)[0]!;
    expect(denied).toMatchObject({ is_error: true });
    expect(textOf(ctx.api.turns()[1]!)).toContain("PreToolUse:Write hook error");
    expect(textOf(ctx.api.turns()[1]!)).toContain(".env");
    expect(await readFile(ctx.project.path("src.ts"), "utf8")).toBe("// (c) us\nexport {};\n");
    expect(textOf(ctx.api.turns()[2]!)).toContain(
      "cpilot's write gate changed this Write before it ran",
    );
  },
  TIMEOUT,
);

test(
  "a broken config reaches the model once, as a clear message, and never blocks the stop",
  async () => {
    const ctx = await setup({ callbacks: [{ name: "x", pattern: "*.ts", run: "true" }] }, (p) => [
      [write(p.path("a.ts"), "a\n")],
      [write(p.path("b.ts"), "b\n")],
      say("done"),
    ]);
    await run("config-error", ctx);
    const all = conversationText(ctx.api.turns()[2]!);
    expect(all).toContain("the project's checks are NOT running: its config is broken");
    expect(all).toContain("callbacks[0].timeout");
    expect(all.split("config is broken").length - 1).toBe(1);
    expect(ctx.api.turns()).toHaveLength(3);
    expect(readdirSync(ctx.project.dir)).toContain("a.ts");
  },
  TIMEOUT,
);

test(
  "a plugin's change to an Edit lands as one whole-file edit through updatedInput",
  async () => {
    const config = {
      callbacks: [],
      gate: { plugins: [{ command: ["./stamp.sh"], name: "stamp" }] },
    };
    const ctx = await setup(config, (p) => [
      [read(p.path("a.ts"))],
      [edit(p.path("a.ts"), "1", "2")],
      say("done"),
    ]);
    const plugin = await ctx.project.write(
      "stamp.sh",
      `#!/bin/bash\ncat >/dev/null\necho '{"decision":"modify","content":"// stamped\\nlet a = 2;\\n"}'\n`,
    );
    await chmod(plugin, 0o755);
    await ctx.project.write("a.ts", "let a = 1;\n");
    ctx.project.commit("init");
    await run("gate-edit", ctx);
    expect(await readFile(ctx.project.path("a.ts"), "utf8")).toBe("// stamped\nlet a = 2;\n");
    expect(toolResults(ctx.api.turns()[2]!)[0]).not.toMatchObject({ is_error: true });
    expect(textOf(ctx.api.turns()[2]!)).toContain(
      "cpilot's write gate changed this Edit before it ran",
    );
  },
  TIMEOUT,
);

test(
  "separate processes: queued runs never overlap, a replaced run says nothing, every result arrives once",
  async () => {
    // Every run waits for the file `release`, which only the last Bash call creates: r1 is
    // still running when r2 starts whatever the machine's load, and no result arrives early.
    const released = until("[ -e release ]");
    const queued = {
      name: "queued",
      pattern: "q*.ts",
      run: `echo "start $CP_CHANGED_FILE" >> trace; ${released}; sleep 0.3; echo "end $CP_CHANGED_FILE" >> trace; exit 1`,
      blocking: false,
      per: "file",
      overlap: "queue",
    };
    // Each run notes the background process that hosts it (its parent), once started.
    const replaced = {
      name: "latest",
      pattern: "r*.ts",
      run: `echo $PPID >> hosts; ${released}; exit 1`,
      blocking: false,
      overlap: "replace",
    };
    const ctx = await setup({ callbacks: [queued, replaced] }, (p) => [
      [
        write(p.path("q1.ts"), "1\n"),
        write(p.path("q2.ts"), "2\n"),
        write(p.path("q3.ts"), "3\n"),
        write(p.path("r1.ts"), "r\n"),
      ],
      bash(until("[ -s hosts ]")),
      [write(p.path("r2.ts"), "r\n")],
      bash(
        [
          until('[ "$(wc -l < hosts)" -ge 2 ]'),
          "touch release",
          // r1's host is gone: whatever it had to say (nothing) is said. A zombie is gone
          // too: in a whole test run the runner may have become a subreaper (the engine's
          // tests run in its process) that adopts the host and never reaps it.
          `h=$(head -n 1 hosts); while kill -0 "$h" 2>/dev/null && ! grep -qs '^State:[[:space:]]*Z' /proc/"$h"/status; do sleep 0.05; done`,
          ...["q1.ts", "q2.ts", "q3.ts", "r2.ts"].map((f) => until(posted(`failed on ${f}`))),
        ].join("; "),
      ),
      say("done"),
    ]);
    await run("overlap", ctx);
    const trace = (await readFile(ctx.project.path("trace"), "utf8")).trim().split("\n");
    expect(trace).toHaveLength(6);
    for (let i = 0; i < 6; i += 2) expect(trace[i + 1]).toBe(trace[i]?.replace("start", "end"));
    const all = conversationText(ctx.api.turns()[4]!);
    for (const file of ["q1.ts", "q2.ts", "q3.ts"]) {
      expect(
        all.match(
          new RegExp(
            `'queued' \\(background run [a-z0-9-]+\\) failed on ${file.replace(".", "\\.")}`,
            "g",
          ),
        ),
      ).toHaveLength(1);
    }
    expect(all.match(/'latest' \(background run [a-z0-9-]+\) failed on r2\.ts/g)).toHaveLength(1);
    expect(all).not.toMatch(/'latest' \(background run [a-z0-9-]+\) failed on r1\.ts/);
  },
  // five model turns, each waiting on the runs: more than one call of a busy machine
  2 * TIMEOUT,
);
