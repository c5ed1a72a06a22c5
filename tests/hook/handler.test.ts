/**
 * The hook-call skeleton every agent's handler is built from (src/hook/call.ts): what it
 * answers for the agent when the payload cannot be read, when cpilot is not set up, when the
 * config does not load, and when the agent's translator throws while it words a reply.
 * Driven with a translator of a made-up protocol over a real project folder and a real
 * config file.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type HookTranslator, hookHandler } from "../../src/hook/call.ts";
import type { HookEventKind, HookReply } from "../../src/model/hook.ts";
import { tempDir } from "../helpers/tmp.ts";

interface Input {
  readonly event: HookEventKind;
  readonly cwd: string;
}

/**
 * A protocol whose deny is `{no: reason}` and whose context is `{say: text}`; every reply
 * to what the pipeline found is `answer()`.
 */
function translator(answer: () => HookReply): HookTranslator<Input> {
  return {
    agent: "test",
    protocol: {
      preWriteEvent: "pre-write",
      denyForm: (reason) => ({ no: reason }),
      emptyJson: {},
      stateDirs: () => [],
    },
    nothing: { json: {} },
    parse(stdin) {
      try {
        return { ok: true, input: JSON.parse(stdin) as Input };
      } catch {
        return { ok: false, error: "Cannot read the hook input: not JSON" };
      }
    },
    event: (input) =>
      input.event === "stop"
        ? null
        : {
            kind: input.event,
            name: `on-${input.event}`,
            session: "s1",
            cwd: input.cwd,
            written: [],
          },
    gateReply: answer,
    afterTool: answer,
    context: () => {
      const reply = answer();
      return () => reply;
    },
    stopReply: answer,
    tell: () => (text) => ({ json: { say: text } }),
  };
}

const call = (handler: ReturnType<typeof hookHandler>, input: Input) =>
  handler(JSON.stringify(input), { cwd: input.cwd, env: process.env });

function project(config: string | null): string {
  const dir = tempDir("cpilot-handler-", { git: true });
  if (config !== null) writeFileSync(join(dir, "callbacks.config.json"), config);
  return dir;
}

const ok = JSON.stringify({ callbacks: [] });
const throws = (): HookReply => {
  throw new Error("boom");
};

test("an internal error before a write denies it in the agent's form, with one line on stderr", async () => {
  const reply = await call(hookHandler(translator(throws)), {
    event: "pre-write",
    cwd: project(ok),
  });
  expect(JSON.stringify(reply.json)).toContain('"no"');
  // the message, not the stack
  expect(reply.stderr).toBe(
    "cpilot: internal error in the on-pre-write hook (please report it): boom",
  );
});

test("an internal error after a write says nothing to the model, one note on stderr", async () => {
  for (const event of ["post-write", "prompt", "session-start"] as const) {
    const reply = await call(hookHandler(translator(throws)), { event, cwd: project(ok) });
    expect(reply.json).toEqual({});
    expect(reply.stderr).toStartWith(`cpilot: internal error in the on-${event} hook`);
  }
});

test("a payload that cannot be read is denied: it may be a write", async () => {
  const handler = hookHandler(translator(throws));
  const reply = await handler("{not json", { cwd: project(ok), env: process.env });
  expect(JSON.stringify(reply.json)).toContain('"no"');
  expect(reply.stderr).toContain("not JSON");
});

test("no config, or an event cpilot does not answer: nothing, and the agent's answer is never asked", async () => {
  let asked = 0;
  const handler = hookHandler(
    translator(() => {
      asked++;
      return { json: { asked: true } };
    }),
  );
  expect(await call(handler, { event: "pre-write", cwd: project(null) })).toEqual({ json: {} });
  expect(await call(handler, { event: "stop", cwd: project(ok) })).toEqual({ json: {} });
  expect(asked).toBe(0);
  expect(await call(handler, { event: "post-write", cwd: project(ok) })).toEqual({
    json: { asked: true },
  });
});

test("a config that does not load: the gate still answers a write, the model is told once", async () => {
  const dir = project("{ broken");
  const handler = hookHandler(translator(() => ({ json: { gated: true } })));
  const pre = await call(handler, { event: "pre-write", cwd: dir });
  expect(pre.json).toEqual({ gated: true });
  expect(pre.stderr).toStartWith("cpilot: ");
  const first = await call(handler, { event: "post-write", cwd: dir });
  expect(JSON.stringify(first.json)).toContain('"say"');
  const again = await call(handler, { event: "post-write", cwd: dir });
  expect(again.json).toEqual({});
  expect(again.stderr).toBe(first.stderr);
});

test("an agent that wants a verdict before every tool call gets its allow where nothing is said", async () => {
  const allow = { json: { go: true } };
  const withAllow = (answer: () => HookReply) => ({ ...translator(answer), allow });
  const quiet = hookHandler(withAllow(() => ({ json: {} })));
  for (const event of ["pre-write", "pre-tool"] as const)
    expect(await call(quiet, { event, cwd: project(null) })).toEqual(allow);
  expect(await call(quiet, { event: "post-write", cwd: project(null) })).toEqual({ json: {} });
  // a call that writes nothing goes on, the agent's translator not asked; one that writes
  // is denied when the translator fails
  const failing = hookHandler(withAllow(throws));
  const tool = await call(failing, { event: "pre-tool", cwd: project(ok) });
  expect(tool).toEqual(allow);
  const write = await call(failing, { event: "pre-write", cwd: project(ok) });
  expect(JSON.stringify(write.json)).toContain('"no"');
  // a config that does not load, told nowhere before a tool runs: the call goes on
  const mute = hookHandler({ ...withAllow(throws), tell: () => null });
  const broken = await call(mute, { event: "pre-tool", cwd: project("{ broken") });
  expect(broken.json).toEqual(allow.json);
  expect(broken.stderr).toStartWith("cpilot: ");
});
