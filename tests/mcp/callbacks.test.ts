/** Callback results in tool results, background runs via the inbox, and the callback tools. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type McpSession, project, startMcp } from "./_client.ts";

const CONFIG = {
  callbacks: [
    {
      name: "check",
      description: "fails when a file says FAIL",
      pattern: "*.txt",
      run: 'for f in $CP_CHANGED_FILES; do if grep -q FAIL "$f"; then echo "line 1 of noise"; echo "error: $f says FAIL"; exit 3; fi; done',
      timeout: 20,
      successMessage: "all good",
    },
    {
      name: "slow-bg",
      pattern: "*.txt",
      run: "sleep 0.4; echo background finished",
      blocking: false,
    },
  ],
};

let proj: ReturnType<typeof project>;
let mcp: McpSession;
const configText = JSON.stringify(CONFIG, null, 2);

beforeAll(async () => {
  proj = project(CONFIG, { "notes.md": "# notes\n" });
  mcp = await startMcp(proj.dir);
});

afterAll(async () => {
  await mcp.close();
  expect(mcp.errors).toEqual([]);
  proj.remove();
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const managedFile = () => join(proj.dir, "callbacks.managed.json");

test("the server tells the agent which callbacks run, at connect time", () => {
  const text = mcp.client.getInstructions() ?? "";
  expect(text).toContain("- check (*.txt, blocking): fails when a file says FAIL");
  expect(text).toContain("- slow-bg (*.txt, background)");
});

describe("results in the tool result", () => {
  test("a passing blocking callback shows its success message; a background one is noted as started", async () => {
    const r = await mcp.call("write_file", { path: "a.txt", content: "hello\n" });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("callbacks for a.txt:");
    expect(r.text).toMatch(/passed {2}check: all good/);
    expect(r.text).toContain("started slow-bg in the background");
    expect(r.text).not.toContain("background finished");
  });

  test("the background result comes with the next call, once", async () => {
    await wait(1200);
    const r = await mcp.call("read_file", { path: "a.txt" });
    expect(r.text).toContain("Notices since your last tool call:");
    expect(r.text).toContain("Background callbacks for your edits of a.txt finished:");
    expect(r.text).toMatch(/passed {2}slow-bg/);
    expect(r.text).toContain("     1\thello");
    const again = await mcp.call("read_file", { path: "a.txt" });
    expect(again.text).not.toContain("Notices");
  });

  test("a failing callback: name, exit in words, last lines and the run id; the edit still happened", async () => {
    const r = await mcp.call("edit_file", {
      path: "a.txt",
      old_string: "hello",
      new_string: "FAIL",
    });
    expect(r.isError).toBe(false);
    expect(readFileSync(join(proj.dir, "a.txt"), "utf8")).toBe("FAIL\n");
    expect(r.text).toContain("FAILED  check on a.txt: exit 3 (run ");
    expect(r.text).toContain("  | error: a.txt says FAIL");
    const runId = /\(run ([a-z0-9-]+)\)/.exec(r.text)?.[1];
    expect(runId).toBeDefined();
    const logs = await mcp.call("callback_logs", { run_id: runId });
    expect(logs.isError).toBe(false);
    expect(logs.text).toContain(`run ${runId} · check · failed`);
    expect(logs.text).toContain("line 1 of noise\nerror: a.txt says FAIL");
    const bounded = await mcp.call("callback_logs", { run_id: runId, lines: 1 });
    expect(bounded.text).not.toContain("line 1 of noise");
    expect(bounded.text).toContain("(last 1 of 2 lines)");
  });

  test("callback_logs: an unknown run is an error; no run_id lists recent runs", async () => {
    const r = await mcp.call("callback_logs", { run_id: "nope-123" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("no such run");
    const list = await mcp.call("callback_logs", {});
    expect(list.text).toContain("check");
    expect(list.text).toContain("failed");
  });

  test("a file no callback matches gets just the edit line", async () => {
    await wait(600);
    await mcp.call("read_file", { path: "a.txt" }); // take the background notice
    const r = await mcp.call("write_file", { path: "b.md", content: "x\n" });
    expect(r.text).toBe("Created b.md (1 line)");
  });
});

describe("callback tools", () => {
  test("callback_list shows every callback with its enabled state and origin", async () => {
    const r = await mcp.call("callback_list");
    expect(r.text).toMatch(
      /check\s+fails when a file says FAIL\s+\*\.txt\s+yes\s+batch\s+yes\s+config/,
    );
    expect(r.text).toMatch(/slow-bg\s+-\s+\*\.txt\s+no\s+batch\s+yes\s+config/);
  });

  test("callback_upsert proposes a callback that runs nowhere until approved; the config file is never touched", async () => {
    const r = await mcp.call("callback_upsert", {
      action: "create",
      name: "md-lint",
      description: "markdown check",
      pattern: "*.md",
      run: "echo checked $CP_CHANGED_FILES",
      timeout: 10,
      success_message: "markdown OK",
    });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('Proposed new callback "md-lint"');
    expect(r.text).toContain("cpilot approve md-lint");
    const managed = JSON.parse(readFileSync(managedFile(), "utf8"));
    expect(managed.callbacks).toEqual([]);
    expect(managed.proposed[0]).toMatchObject({ name: "md-lint", pattern: "*.md", timeout: 10 });
    expect(readFileSync(join(proj.dir, "callbacks.config.json"), "utf8")).toBe(configText);
    const edit = await mcp.call("write_file", { path: "notes.md", content: "# notes\nmore\n" });
    expect(edit.text).not.toContain("md-lint");
    const list = await mcp.call("callback_list");
    expect(list.text).not.toMatch(/md-lint\s+markdown check/);
    expect(list.text).toContain('- md-lint: run "echo checked $CP_CHANGED_FILES"');
    // The person accepts it in review: moved into "callbacks" by hand, it runs.
    writeFileSync(managedFile(), JSON.stringify({ callbacks: managed.proposed }));
    const approved = await mcp.call("write_file", { path: "notes.md", content: "# notes\n" });
    expect(approved.text).toMatch(/passed {2}md-lint: markdown OK/);
    const listed = await mcp.call("callback_list");
    expect(listed.text).toMatch(/md-lint\s+markdown check\s+\*\.md\s+yes\s+batch\s+yes\s+managed/);
  });

  test("callback_upsert: update proposes only the fields given; bad input and config names are refused", async () => {
    let r = await mcp.call("callback_upsert", {
      action: "update",
      name: "md-lint",
      success_message: "md fine",
    });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("The approved version keeps running meanwhile");
    const managed = JSON.parse(readFileSync(managedFile(), "utf8"));
    expect(managed.callbacks[0].successMessage).toBe("markdown OK");
    expect(managed.proposed[0]).toMatchObject({
      name: "md-lint",
      successMessage: "md fine",
      timeout: 10,
    });
    r = await mcp.call("callback_upsert", { action: "update", name: "check", timeout: 5 });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("callbacks.config.json, which only people edit");
    r = await mcp.call("callback_upsert", {
      action: "create",
      name: "md-lint",
      pattern: "*",
      run: "true",
      timeout: 1,
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("exists");
    r = await mcp.call("callback_upsert", {
      action: "create",
      name: "no-timeout",
      pattern: "*.md",
      run: "true",
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("timeout");
    r = await mcp.call("callback_upsert", {
      action: "create",
      name: "Bad Name",
      pattern: "*",
      run: "true",
      timeout: 1,
    });
    expect(r.isError).toBe(true);
    expect(readFileSync(join(proj.dir, "callbacks.config.json"), "utf8")).toBe(configText);
  });

  test("callback_toggle pauses a callback for this session only; nothing on disk changes", async () => {
    let r = await mcp.call("callback_toggle", { name: "md-lint", enabled: false });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("md-lint: off");
    const edit = await mcp.call("write_file", { path: "notes.md", content: "# notes\nagain\n" });
    expect(edit.text).not.toContain("md-lint");
    const list = await mcp.call("callback_list");
    expect(list.text).toMatch(/md-lint\s+markdown check\s+\*\.md\s+yes\s+batch\s+paused/);
    r = await mcp.call("callback_toggle", { name: "nope", enabled: true });
    expect(r.isError).toBe(true);
    r = await mcp.call("callback_toggle", { all: true, enabled: false });
    expect(r.text).toContain("every callback paused for this session only");
    const quiet = await mcp.call("write_file", { path: "c.txt", content: "FAIL\n" });
    expect(quiet.text).toBe("Created c.txt (1 line)");
    r = await mcp.call("callback_toggle", { all: true, enabled: true });
    const loud = await mcp.call("write_file", { path: "c.txt", content: "FAIL\nFAIL\n" });
    expect(loud.text).toContain("FAILED  check");
    expect(existsSync(join(proj.dir, ".cpilot", "state.json"))).toBe(false);
    expect(readFileSync(join(proj.dir, "callbacks.config.json"), "utf8")).toBe(configText);
  });

  test("callback_upsert delete of an approved callback is a proposal; of its own proposal, a withdrawal", async () => {
    const r = await mcp.call("callback_upsert", { action: "delete", name: "md-lint" });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('Proposed deleting callback "md-lint"');
    const list = await mcp.call("callback_list");
    expect(list.text).toContain("- md-lint: delete it");
    await mcp.call("callback_upsert", {
      action: "create",
      name: "extra",
      pattern: "*.md",
      run: "true",
      timeout: 5,
    });
    const withdrawn = await mcp.call("callback_upsert", { action: "delete", name: "extra" });
    expect(withdrawn.text).toContain('Withdrew the proposal "extra"');
    const again = await mcp.call("callback_upsert", { action: "delete", name: "extra" });
    expect(again.isError).toBe(true);
    writeFileSync(managedFile(), JSON.stringify({ callbacks: [] }));
  });
});

describe("config reload", () => {
  test("an edited config is used on the next call; a broken one does not stop edits", async () => {
    await wait(600);
    await mcp.call("read_file", { path: "a.txt" });
    const config = {
      callbacks: [
        {
          name: "new-one",
          pattern: "*.txt",
          run: "echo new",
          timeout: 5,
          successMessage: "new ran",
        },
      ],
    };
    writeFileSync(join(proj.dir, "callbacks.config.json"), JSON.stringify(config));
    let r = await mcp.call("write_file", { path: "d.txt", content: "x\n" });
    expect(r.text).toContain("new-one: new ran");
    expect(r.text).not.toContain("check");
    writeFileSync(join(proj.dir, "callbacks.config.json"), "{ not json");
    r = await mcp.call("write_file", { path: "e.txt", content: "x\n" });
    expect(r.isError).toBe(false);
    expect(readFileSync(join(proj.dir, "e.txt"), "utf8")).toBe("x\n");
    expect(r.text).toContain("callbacks did not run: the config does not load");
    const list = await mcp.call("callback_list");
    expect(list.isError).toBe(true);
    writeFileSync(join(proj.dir, "callbacks.config.json"), configText);
  });
});

describe("context_update", () => {
  test("applies blocks and reports; a bad block is an error with the reason", async () => {
    const r = await mcp.call("context_update", {
      text: 'Done.\n<context-update file="TASKS.md" action="add" section="Tasks">\n- [ ] write docs\n</context-update>',
    });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("1 applied");
    expect(readFileSync(join(proj.dir, ".context", "TASKS.md"), "utf8")).toContain(
      "- [ ] write docs",
    );
    const bad = await mcp.call("context_update", {
      text: '<context-update file="../escape.md" action="add" section="X">\nx\n</context-update>',
    });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("FAILED");
    const none = await mcp.call("context_update", { text: "no blocks here" });
    expect(none.isError).toBe(true);
  });
});
