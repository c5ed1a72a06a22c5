/**
 * Files the agent writes through its Bash tool, with the real Claude Code CLI (2.1.330)
 * and `cpilot install claude --local`, driven by the fake Messages API: found by comparing
 * the project's files with the turn's start, checked like an Edit's, held at the stop.
 */
import { expect, test } from "bun:test";
import { claudeProjects, TODO_LINT } from "../../support/claude-project.ts";
import { type Turn, textOf } from "../../support/fake-anthropic.ts";

const TIMEOUT = 90_000;
const claude = claudeProjects();
const setup = (script: Turn[]) => claude.setup({ callbacks: [TODO_LINT] }, () => script);
const run = claude.run;

const bash = (command: string): Turn[number] => ({
  type: "tool_use",
  name: "Bash",
  input: { command, description: "run it" },
});
const say = (text: string): Turn => [{ type: "text", text }];

test(
  "a lint error written through Bash reaches the model in that tool's result and holds its stop",
  async () => {
    const ctx = await setup([
      [bash("printf 'export const a = 1; // TODO remove\\n' > a.ts")],
      say("done"),
      [bash("sed -i 's| // TODO remove||' a.ts")],
      say("fixed"),
    ]);
    // The person's own unfinished file, there before the turn: it stays theirs.
    await ctx.project.write("b.ts", "export const b = 2; // TODO mine\n");
    await run(ctx);
    const turns = ctx.api.turns();
    const afterBash = textOf(turns[1]!);
    expect(afterBash).toContain("PostToolUse:Bash hook blocking error");
    expect(afterBash).toContain("files your command changed: a.ts");
    expect(afterBash).toContain("✗ 'lint' failed on a.ts: exit 1 (failed)");
    expect(afterBash).not.toContain("b.ts");
    const atStop = textOf(turns[2]!);
    expect(atStop).toContain("Stop hook feedback");
    expect(atStop).toContain("'lint' failed on a.ts");
    // The fix through sed is checked too and passes: the next stop is let through.
    expect(textOf(turns[3]!)).not.toContain("failed on a.ts");
    expect(turns).toHaveLength(4);
  },
  TIMEOUT,
);

test(
  ".env written through Bash is reported as a protected file changed, and holds the stop until removed",
  async () => {
    const ctx = await setup([
      [bash("echo 'TOKEN=abc123' > .env")],
      say("done"),
      [bash("rm .env")],
      say("removed"),
    ]);
    await run(ctx);
    const turns = ctx.api.turns();
    const afterBash = textOf(turns[1]!);
    expect(afterBash).toContain("PostToolUse:Bash hook blocking error");
    expect(afterBash).toContain("a protected file was changed through the shell: .env");
    expect(afterBash).toContain("must be reverted: delete it");
    expect(afterBash).not.toContain("abc123"); // a secret's bytes are not repeated
    expect(textOf(turns[2]!)).toContain("Stop hook feedback");
    expect(textOf(turns[2]!)).toContain("protected file was changed through the shell: .env");
    expect(turns).toHaveLength(4);
  },
  TIMEOUT,
);

test(
  "a Bash command that writes 60 files names 50 of them to the model, the rest counted, all checked",
  async () => {
    const ctx = await setup([
      [
        bash(
          'mkdir gen && for i in $(seq -w 1 60); do echo "export const n$i = $i;" > gen/f$i.ts; done',
        ),
      ],
      say("done"),
    ]);
    await run(ctx);
    const afterBash = textOf(ctx.api.turns()[1]!);
    expect(afterBash).toContain("files your command changed: gen/f01.ts, gen/f02.ts");
    expect(afterBash).toContain("gen/f50.ts and 10 more (all checked)");
    expect(afterBash).not.toContain("gen/f51.ts");
  },
  TIMEOUT,
);

/**
 * Writes a.ts, then rewrites the turn's record where cpilot once kept it (the git folder) so
 * a.ts reads as the person's from before the turn. `stat` gives the stat data cpilot signs
 * an unprotected file with.
 */
const WRITE_AND_FORGE = String.raw`printf 'export const a = 1; // TODO remove\n' > a.ts && sig=$(stat -c '%s:%.9Y:%.9Z:%i' a.ts | tr -d .) && for f in .git/cpilot/sessions/*/tree-snapshot.json; do [ -f "$f" ] && sed -i "1s|{\"files\":{|{\"files\":{\"a.ts\":\"s:$sig\",|" "$f"; done; true`;

test(
  "a Bash command that writes a.ts and rewrites cpilot's record to hide it: the edit reaches the model and holds its stop",
  async () => {
    const ctx = await setup([
      [bash(WRITE_AND_FORGE)],
      say("done"),
      [bash("sed -i 's| // TODO remove||' a.ts")],
      say("fixed"),
    ]);
    await run(ctx);
    const turns = ctx.api.turns();
    const afterBash = textOf(turns[1]!);
    expect(afterBash).toContain("it names cpilot's records in the git folder");
    expect(afterBash).toContain("✗ 'lint' failed on a.ts: exit 1 (failed)");
    const atStop = textOf(turns[2]!);
    expect(atStop).toContain("Stop hook feedback");
    expect(atStop).toContain("'lint' failed on a.ts");
    expect(textOf(turns[3]!)).not.toContain("failed on a.ts");
    expect(turns).toHaveLength(4);
  },
  TIMEOUT,
);
