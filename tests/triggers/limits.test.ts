import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { takeNotices } from "../../src/agent-session/inbox.ts";
import { firesUsed } from "../../src/engine/triggers/limits.ts";
import { batch, cb, engine, project, startRunner } from "./_helpers.ts";

test("a run action hands on the output: CP_HOOK_OUTPUT, CP_HOOK_DEPTH and the stdin hook field", async () => {
  const root = project();
  const e = engine(root, [
    cb("check", 'echo "E1 broken"; echo "E1 detail"; exit 1', {
      onExit: { when: "failure", action: "run", callback: "fix-hints" },
    }),
    cb(
      "fix-hints",
      `printf '%s' "$CP_HOOK_OUTPUT" > "${root}/out"; echo "$CP_HOOK_DEPTH $CP_HOOK_TRIGGER $CP_HOOK_PARENT_CALLBACK" > "${root}/env"; cat > "${root}/stdin"`,
      { pattern: "nothing-matches" },
    ),
  ]);
  const outcome = await e.run(batch(root));
  expect(outcome.runs.map((r) => r.callback)).toEqual(["check", "fix-hints"]);
  const hint = outcome.runs[1];
  expect(hint?.startedBy).toEqual({
    runId: outcome.runs[0]?.id as string,
    callback: "check",
    hook: "onExit",
    depth: 1,
  });
  expect(hint?.files).toEqual(["a.txt"]);
  expect(readFileSync(join(root, "out"), "utf8")).toBe("E1 broken\nE1 detail");
  expect(readFileSync(join(root, "env"), "utf8")).toBe("1 onExit check\n");
  const stdin = JSON.parse(readFileSync(join(root, "stdin"), "utf8"));
  expect(stdin.hook).toMatchObject({ parentCallback: "check", trigger: "onExit", depth: 1 });
  expect(stdin.hook.output).toBe("E1 broken\nE1 detail");
  expect(outcome.ok).toBe(false);
});

test("recursion stops at the depth limit: a callback whose hook runs itself", async () => {
  const root = project();
  const e = engine(root, [
    cb("loop", `echo "$CP_HOOK_DEPTH" >> "${root}/depths"; echo "pass $CP_HOOK_DEPTH"`, {
      onExit: { action: "run", callback: "loop" },
    }),
  ]);
  const outcome = await e.run(batch(root));
  expect(outcome.runs.map((r) => r.callback)).toEqual(["loop", "loop", "loop", "loop"]);
  expect(readFileSync(join(root, "depths"), "utf8")).toBe("0\n1\n2\n3\n");
  expect(outcome.notes.join("\n")).toContain("trigger depth 4 is over the limit of 3");
});

test("the depth limit comes from config, and CP_HOOK_DEPTH carries it across processes", async () => {
  const root = project();
  const callbacks = [
    cb("loop", `echo "$CP_HOOK_DEPTH" >> "${root}/depths"`, {
      onExit: { action: "run", callback: "loop" },
    }),
  ];
  // maxDepth 1: the edit's run and one hook run.
  const outcome = await engine(root, { callbacks, hookLimits: { maxDepth: 1 } }).run(batch(root));
  expect(outcome.runs).toHaveLength(2);
  // A cpilot process started inside a hook run at depth 2 counts on from there.
  const { done } = startRunner(
    { root, config: { callbacks }, files: ["a.txt"] },
    { CP_HOOK_DEPTH: "2" },
  );
  const result = await done;
  const runs = JSON.parse(result.out).runs as unknown[];
  expect(runs).toHaveLength(2); // depth 2, then 3; 4 is refused
  expect(readFileSync(join(root, "depths"), "utf8")).toBe("0\n1\n2\n3\n");
});

test("the cap on concurrent hook runs holds for their whole life", async () => {
  const root = project();
  const log = join(root, "spans");
  const e = engine(root, {
    concurrency: 16,
    callbacks: [
      cb("fan", 'for i in 1 2 3 4 5 6 7 8; do echo "go $i"; sleep 0.02; done', {
        onOutput: { match: "^go", delay: 0, maxFires: 8, action: "run", callback: "slow" },
      }),
      cb(
        "slow",
        `echo "start $(date +%s%N)" >> "${log}"; sleep 0.4; echo "end $(date +%s%N)" >> "${log}"`,
        { pattern: "nothing-matches", overlap: "parallel" },
      ),
    ],
  });
  const outcome = await e.run(batch(root));
  expect(outcome.runs.filter((r) => r.callback === "slow")).toHaveLength(8);
  expect(outcome.runs.every((r) => r.status === "passed")).toBe(true);
  const events = readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((l) => l.split(" "))
    .map(([kind, t]) => ({ kind, t: BigInt(t as string) }))
    .sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : a.kind === "end" ? -1 : 1));
  let live = 0;
  let most = 0;
  for (const ev of events) {
    live += ev.kind === "start" ? 1 : -1;
    most = Math.max(most, live);
  }
  expect(most).toBe(3);
});

test("the session budget counts fires across engines and processes, and says when it is spent", async () => {
  const root = project();
  const config = {
    hookLimits: { sessionBudget: 3 },
    callbacks: [
      cb("noisy", 'for i in 1 2; do echo "warn $i"; sleep 0.1; done', {
        onOutput: { match: "warn", delay: 0, maxFires: 5, action: "notify" as const },
      }),
    ],
  };
  const first = await engine(root, config).run(batch(root, "s1"));
  expect(first.notes).toEqual([]);
  expect(firesUsed(root, "s1")).toBe(2);
  // Another process of the same session: one fire left.
  const { done } = startRunner({ root, config, files: ["a.txt"], session: "s1" });
  const second = JSON.parse((await done).out) as { notes: string[] };
  expect(firesUsed(root, "s1")).toBe(3);
  expect(second.notes.join("\n")).toContain("session s1 used its budget of 3 trigger fires");
  expect(takeNotices(root, "s1")).toHaveLength(3);
  // Another session has its own budget.
  await engine(root, config).run(batch(root, "s2"));
  expect(takeNotices(root, "s2")).toHaveLength(2);
});
