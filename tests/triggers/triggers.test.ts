import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { countNotices, takeNotices } from "../../src/agent-session/inbox.ts";
import type { TriggerContext } from "../../src/config/types.ts";
import { processAlive, waitFor } from "../helpers/tmp.ts";
import { batch, cb, engine, project } from "./_helpers.ts";

test("an error line fires once, after the delay, with the lines that followed it", async () => {
  const root = project();
  const script = [
    "echo compiling",
    'echo "src/a.ts(3,1): error TS2322: bad type"',
    "sleep 0.2",
    'echo "  expected string"',
    'echo "src/b.ts(9,1): error TS2345: also bad"',
    "sleep 0.3",
    'echo "  got number"',
    // the last line comes only once the test has seen the notice: always after the window
    "until [ -e release ]; do sleep 0.05; done",
    "echo after-the-window",
  ].join("\n");
  // The lines of the window come within 0.5 s: a 3 s delay holds them all on a busy machine.
  const e = engine(root, [
    cb("tsc", script, { onOutput: { match: "error TS\\d+", delay: 3, action: "notify" } }),
  ]);
  const started = Date.now();
  const running = e.run(batch(root, "s1"));
  expect(await waitFor(() => countNotices(root, "s1") > 0, 30_000)).toBe(true);
  const firedAfter = Date.now() - started;
  writeFileSync(join(root, "release"), "");
  const outcome = await running;
  const notices = takeNotices(root, "s1");
  expect(notices).toHaveLength(1);
  const text = notices[0]?.text ?? "";
  expect(text).toContain("error TS2322: bad type");
  expect(text).toContain("expected string");
  expect(text).toContain("error TS2345"); // a second match inside the window is part of it
  expect(text).toContain("got number");
  expect(text).not.toContain("after-the-window");
  expect(text).not.toContain("compiling");
  expect(notices[0]?.runId).toBe(outcome.runs[0]?.id as string);
  // Fired after the delay, by its timer: the run could not end before the test saw the notice.
  expect(firedAfter).toBeGreaterThanOrEqual(3000);
  expect(outcome.runs[0]?.status).toBe("passed");
});

test("maxFires holds under a burst of matches, and a window keeps at most 200 lines", async () => {
  const root = project();
  const e = engine(root, [
    cb("burst", 'for i in $(seq 1 1000); do echo "error $i"; done', {
      // the run's end fires the window at once: a long delay costs nothing and holds the
      // whole burst on a busy machine
      onOutput: { match: "^error", delay: 5, action: "notify" },
    }),
    cb("spaced", 'for i in 1 2 3 4 5 6 7 8; do echo "warn $i"; sleep 0.12; done', {
      onOutput: { match: "^warn", delay: 0, maxFires: 3, action: "notify" },
    }),
  ]);
  await e.run(batch(root, "s1"));
  const notices = takeNotices(root, "s1");
  const burst = notices.filter((n) => n.text.includes("'burst'"));
  const spaced = notices.filter((n) => n.text.includes("'spaced'"));
  expect(burst).toHaveLength(1);
  expect(burst[0]?.text).toContain("error 1\n");
  expect(burst[0]?.text).toContain("error 200\n");
  expect(burst[0]?.text).not.toContain("error 201\n");
  expect(burst[0]?.text).toContain("800 more lines in the log");
  expect(spaced).toHaveLength(3);
  expect(spaced.map((n) => n.text.match(/warn \d/)?.[0])).toEqual(["warn 1", "warn 2", "warn 3"]);
});

test("onTimeout fires while the process still runs; the run goes on", async () => {
  const root = project();
  const e = engine(root, [
    // it runs until the test has seen the notice
    cb("slow", "echo working; until [ -e release ]; do sleep 0.05; done; echo done", {
      onTimeout: { after: 0.3, action: "notify", message: "still at it" },
    }),
  ]);
  let finished = false;
  const running = e.run(batch(root, "s1")).then((o) => {
    finished = true;
    return o;
  });
  expect(await waitFor(() => countNotices(root, "s1") > 0, 30_000)).toBe(true);
  expect(finished).toBe(false);
  writeFileSync(join(root, "release"), "");
  const outcome = await running;
  expect(outcome.runs[0]?.status).toBe("passed");
  const [notice] = takeNotices(root, "s1");
  expect(notice?.text).toContain("is still running after 0.3 s");
  expect(notice?.text).toContain("still at it");
  expect(notice?.text).toContain("working");
});

test("onTimeout stop ends a run early; a run that ends first fires nothing", async () => {
  const root = project();
  const e = engine(root, [
    // it would outlast the test: only the trigger can end it
    cb("hang", "sleep 600", { onTimeout: { after: 0.3, action: "stop" } }),
    // it ends long before its trigger's time, even on a busy machine
    cb("quick", "true", { onTimeout: { after: 2, action: "notify" } }),
  ]);
  const outcome = await e.run(batch(root, "s1"));
  const hang = outcome.runs.find((r) => r.callback === "hang");
  expect(hang?.status).toBe("failed");
  expect(hang?.summary).toBe("stopped by its onTimeout trigger");
  // past the time quick's trigger would have fired, had its run's end not cleared it
  await new Promise((r) => setTimeout(r, 2500));
  expect(takeNotices(root, "s1")).toHaveLength(0);
});

test("stop kills the whole process group: grandchildren are gone", async () => {
  const root = project();
  const script = `sleep 30 & echo $! > "${root}/gc.pid"; echo READY; wait`;
  const e = engine(root, [
    cb("server", script, { onOutput: { match: "READY", delay: 0, action: "stop" } }),
  ]);
  const outcome = await e.run(batch(root));
  expect(outcome.runs[0]?.status).toBe("failed");
  expect(outcome.runs[0]?.summary).toBe("stopped by its onOutput trigger");
  const grandchild = Number(readFileSync(join(root, "gc.pid"), "utf8"));
  expect(await waitFor(() => !processAlive(grandchild), 20_000)).toBe(true);
});

test("onExit filters by success and failure; notify reaches the run's session, or any session", async () => {
  const root = project();
  const e = engine(root, [
    cb("bad", "echo broken; exit 3", {
      onExit: [
        { when: "failure", action: "notify", message: "it failed" },
        { when: "success", action: "notify", message: "it passed" },
      ],
    }),
    cb("good", "echo fine", { onExit: { when: "success", action: "notify" } }),
  ]);
  await e.run(batch(root, "s1"));
  const texts = takeNotices(root, "s1").map((n) => n.text);
  expect(texts).toHaveLength(2);
  expect(
    texts.some((t) => t.includes("it failed") && t.includes("broken") && t.includes("exit 3")),
  ).toBe(true);
  expect(texts.some((t) => t.includes("'good'") && t.includes("passed"))).toBe(true);
  expect(texts.some((t) => t.includes("it passed"))).toBe(false);
  await e.run(batch(root));
  // Without a session the notices wait for whichever session asks first.
  expect(
    takeNotices(root, "another")
      .map((n) => n.text)
      .join(),
  ).toContain("it failed");
});

test("a function action gets the output and can stop, notify and run", async () => {
  const root = project();
  const seen: TriggerContext[] = [];
  const e = engine(root, [
    // it would outlast the test: only the trigger can end it
    cb("watch", 'echo "FAIL one"; echo detail; sleep 600', {
      onOutput: {
        match: /^FAIL/,
        delay: 0.2,
        action: async (ctx) => {
          seen.push(ctx);
          ctx.notify(`custom: ${ctx.lines.length} lines`);
          const result = await ctx.run("hints");
          ctx.notify(`hints said ${result?.tail.join("|")}`);
          ctx.stop();
        },
      },
    }),
    cb("hints", 'echo "hint for: $CP_HOOK_OUTPUT"', { pattern: "nothing-matches" }),
  ]);
  const outcome = await e.run(batch(root, "s1"));
  expect(seen[0]?.trigger).toBe("onOutput");
  expect(seen[0]?.lines).toEqual(["FAIL one", "detail"]);
  const texts = takeNotices(root, "s1").map((n) => n.text);
  expect(texts).toEqual(["custom: 2 lines", "hints said hint for: FAIL one|detail"]);
  expect(outcome.runs.map((r) => [r.callback, r.status])).toEqual([
    ["watch", "failed"],
    ["hints", "passed"],
  ]);
});

test("a throwing function action becomes a note, not a crash", async () => {
  const root = project();
  const e = engine(root, [
    cb("x", "echo hi", {
      onExit: {
        action: () => {
          throw new Error("boom");
        },
      },
    }),
  ]);
  const outcome = await e.run(batch(root));
  expect(outcome.runs[0]?.status).toBe("passed");
  expect(outcome.notes.join("\n")).toContain("onExit trigger of 'x'");
  expect(outcome.notes.join("\n")).toContain("boom");
});

test("a callback without hooks resolves with none: no listener, no timers", () => {
  const root = project();
  const e = engine(root, [
    cb("plain", "true"),
    cb("hooked", "true", { onExit: { action: "notify" } }),
  ]);
  expect(e.config.callbacks[0]?.triggers).toBeUndefined();
  expect(e.config.callbacks[1]?.triggers?.onExit).toHaveLength(1);
});

test("a TypeScript run's log lines feed onOutput; stop aborts its signal", async () => {
  const root = project();
  let signal: AbortSignal | undefined;
  const e = engine(root, [
    cb("fn", "", {
      run: async (ctx) => {
        signal = ctx.signal;
        ctx.log("warming up");
        ctx.log("FATAL: out of memory");
        // longer than the test may last, and deaf to the signal: only the stop ends the run
        await new Promise((resolve) => setTimeout(resolve, 600_000).unref());
      },
      onOutput: { match: "^FATAL", delay: 0.1, action: "stop" },
      onExit: { when: "failure", action: "notify" },
    }),
  ]);
  const outcome = await e.run(batch(root, "s1"));
  expect(outcome.runs[0]?.status).toBe("failed");
  expect(outcome.runs[0]?.summary).toBe("stopped by its onOutput trigger");
  const [notice] = takeNotices(root, "s1");
  expect(notice?.text).toContain("FATAL: out of memory");
  expect(notice?.failing).toBe(true);
  expect(signal?.aborted).toBe(true);
});
