/** `cpilot hook claude` alone: PostToolUse / PostToolBatch payloads in, protocol JSON out. */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../helpers/tmp.ts";
import { contextOf, makeProject, type Project, postBatch, postWrite } from "./_helpers.ts";

const projects: Project[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) p.remove();
});
function project(config: unknown, files: Record<string, string> = {}): Project {
  const p = makeProject(config, files);
  projects.push(p);
  return p;
}

const lint = (run: string, extra: Record<string, unknown> = {}) => ({
  name: "lint",
  pattern: "*.ts",
  run,
  timeout: 10,
  per: "file",
  ...extra,
});

describe("PostToolUse", () => {
  test("a failed blocking callback blocks with name, file, exit words, tail and run id", () => {
    const p = project({ callbacks: [lint("echo first; echo 'bad thing' >&2; exit 1")] });
    const r = p.hook(postWrite(p.path("src/a.ts")));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const json = r.json as { decision: string; reason: string };
    expect(json.decision).toBe("block");
    const id = /run ([a-z0-9]+-[a-f0-9]+), full log: cpilot logs \1/.exec(json.reason)?.[1];
    expect(id).toBeDefined();
    expect(json.reason).toBe(
      `✗ 'lint' failed on src/a.ts: exit 1 (failed)\n  first\n  bad thing\n  run ${id}, full log: cpilot logs ${id}`,
    );
    expect(existsSync(p.path(`.cpilot/runs/${id}.log`))).toBe(true);
  });

  test("the tail is short: the last lines only, long lines cut", () => {
    const p = project({
      agent: { tailLines: 5 },
      callbacks: [
        lint(
          `for i in $(seq 1 100); do echo "line $i"; done; printf 'x%.0s' $(seq 1 500); echo; exit 2`,
        ),
      ],
    });
    const reason = (p.hook(postWrite(p.path("a.ts"))).json as { reason: string }).reason;
    const lines = reason.split("\n");
    expect(lines[0]).toBe("✗ 'lint' failed on a.ts: exit 2 (misuse or failed)");
    expect(lines[1]).toBe("  … (earlier output is in the log)");
    expect(lines.slice(2, 6)).toEqual(["  line 97", "  line 98", "  line 99", "  line 100"]);
    expect(lines[6]).toContain("… (300 more chars)");
    expect(lines[6]?.length).toBeLessThan(240);
    expect(lines).toHaveLength(8);
  });

  test("success: the successMessage as additionalContext; nothing when unset or silent", () => {
    const p = project({
      callbacks: [
        lint("true", { name: "types", successMessage: "types OK" }),
        lint("true", { name: "quiet", successMessage: "silent" }),
        lint("true", { name: "plain" }),
      ],
    });
    const r = p.hook(postWrite(p.path("a.ts")));
    expect(r.json).toEqual({
      hookSpecificOutput: {
        hookEventName: "PostToolUse",
        additionalContext: "✓ 'types' passed on a.ts: types OK",
      },
    });
    const none = project({ callbacks: [lint("true")] });
    expect(none.hook(postWrite(none.path("a.ts"))).stdout).toBe("");
  });

  test("a file nothing matches, a file outside the root, a tool that edits nothing: no output", () => {
    const p = project({ callbacks: [lint("exit 1")] });
    expect(p.hook(postWrite(p.path("a.md"))).stdout).toBe("");
    expect(p.hook(postWrite("/tmp/elsewhere.ts")).stdout).toBe("");
    const read = {
      hook_event_name: "PostToolUse",
      tool_name: "Read",
      tool_input: { file_path: p.path("a.ts") },
    };
    expect(p.hook(read).stdout).toBe("");
  });

  test("a formatter's rewrite comes back as a diff of exactly what changed", () => {
    const p = project(
      { callbacks: [lint(`sed -i 's/  */ /g; s/$/;/' "$CP_CHANGED_FILE"`, { name: "fmt" })] },
      { "a.ts": "const a  =  1\nconst b = 2\n" },
    );
    const ctx = contextOf(p.hook(postWrite(p.path("a.ts"))).json);
    expect(readFileSync(p.path("a.ts"), "utf8")).toBe("const a = 1;\nconst b = 2;\n");
    expect(ctx).toContain("~ a callback rewrote a.ts after your edit");
    expect(ctx).toContain(
      "@@ -1,2 +1,2 @@\n-const a  =  1\n-const b = 2\n+const a = 1;\n+const b = 2;",
    );
  });

  test("batch callbacks wait for PostToolBatch, then run once with every file", () => {
    const p = project({
      callbacks: [
        {
          name: "types",
          pattern: "*.ts",
          run: 'echo "$CP_CHANGED_FILES" > files.txt; exit 1',
          timeout: 10,
        },
      ],
    });
    expect(p.hook(postWrite(p.path("a.ts"))).stdout).toBe("");
    expect(existsSync(p.path("files.txt"))).toBe(false);
    const r = p.hook(postBatch([p.path("a.ts"), p.path("b.ts"), p.path("notes.md")]));
    expect(readFileSync(p.path("files.txt"), "utf8")).toBe("a.ts\nb.ts\n");
    const ctx = contextOf(r.json);
    expect((r.json as { decision?: string }).decision).toBeUndefined();
    expect(ctx).toContain("cpilot: checks failed after your last edits; fix these:");
    expect(ctx).toContain("✗ 'types' failed on a.ts and b.ts: exit 1 (failed)");
  });

  test("a PostToolBatch after only a Read runs nothing and says nothing", () => {
    const p = project({ callbacks: [{ name: "types", pattern: "*", run: "exit 1", timeout: 10 }] });
    const batch = {
      hook_event_name: "PostToolBatch",
      tool_calls: [
        {
          tool_name: "Read",
          tool_input: { file_path: p.path("a.ts") },
          tool_use_id: "t",
          tool_response: "1\tx",
        },
      ],
    };
    expect(p.hook(batch).stdout).toBe("");
  });

  test("without PostToolBatch (older Claude Code) batch callbacks run on each PostToolUse, never twice", () => {
    const p = project({
      callbacks: [
        { name: "types", pattern: "*.ts", run: "echo ran >> count.txt; exit 1", timeout: 10 },
      ],
    });
    const r = p.hook(postWrite(p.path("a.ts"), "toolu_9"), {});
    expect((r.json as { reason: string }).reason).toContain("✗ 'types' failed on a.ts");
    // A PostToolBatch arrives after all (a 2.1 CLI without AI_AGENT): the same call is not re-run.
    expect(
      p.hook(
        {
          ...postBatch([p.path("a.ts")]),
          tool_calls: [
            { ...(postBatch([p.path("a.ts")]).tool_calls as object[])[0], tool_use_id: "toolu_9" },
          ],
        },
        {},
      ).stdout,
    ).toBe("");
    expect(readFileSync(p.path("count.txt"), "utf8")).toBe("ran\n");
    // From now on this project is known to send PostToolBatch: PostToolUse leaves batch callbacks to it.
    expect(p.hook(postWrite(p.path("b.ts"), "toolu_10"), {}).stdout).toBe("");
    expect(readFileSync(p.path("count.txt"), "utf8")).toBe("ran\n");
  });
});

describe("background callbacks", () => {
  test("start detached, answer at once, and deliver the result once at a later call", async () => {
    // the run ends only once the test has looked for its record
    const release = join(tempDir("cpilot-release-"), "release");
    const p = project({
      callbacks: [
        {
          name: "e2e",
          pattern: "*.ts",
          run: `until [ -e '${release}' ]; do sleep 0.05; done; echo 'e2e: 1 failing'; exit 1`,
          blocking: false,
          per: "file",
        },
      ],
    });
    const r = p.hook(postWrite(p.path("a.ts")));
    const ctx = contextOf(r.json);
    const id =
      /'e2e' started in background on a\.ts, run ([a-z0-9-]+): its result comes with a later message/.exec(
        ctx,
      )?.[1];
    expect(id).toBeDefined();
    // The hook answered before the run finished: it has no record yet.
    expect(existsSync(p.path(`.cpilot/runs/${id}.json`))).toBe(false);
    writeFileSync(release, "");
    await backgroundDone(p.dir, id as string);
    const later = p.hook({ hook_event_name: "UserPromptSubmit", prompt: "go on" });
    expect(contextOf(later.json)).toContain(
      `✗ 'e2e' (background run ${id}) failed on a.ts: exit 1 (failed)\n  e2e: 1 failing`,
    );
    expect(p.hook({ hook_event_name: "UserPromptSubmit", prompt: "again" }).stdout).not.toContain(
      id as string,
    );
  });

  test("a later edit of a file nothing matches still delivers a waiting result", async () => {
    const p = project({
      callbacks: [
        { name: "slow", pattern: "*.ts", run: "sleep 0.5; exit 3", blocking: false, per: "file" },
      ],
    });
    const id = /run ([a-z0-9-]+)/.exec(contextOf(p.hook(postWrite(p.path("a.ts"))).json))?.[1];
    expect(id).toBeDefined();
    await backgroundDone(p.dir, id as string);
    const later = p.hook(postWrite(p.path("notes.md")));
    expect(later.json).toMatchObject({ decision: "block" });
    expect(JSON.stringify(later.json)).toContain(`'slow' (background run ${id}) failed on a.ts`);
    expect(p.hook(postWrite(p.path("notes.md"))).stdout).toBe("");
  });
});

/**
 * Until the background run `id` is recorded and its detached process has handed its results
 * to the session and removed its spec from `.cpilot/background/` (30 s at most).
 */
async function backgroundDone(root: string, id: string): Promise<void> {
  const record = join(root, ".cpilot", "runs", `${id}.json`);
  const specs = join(root, ".cpilot", "background");
  const done = () =>
    existsSync(record) &&
    (!existsSync(specs) || readdirSync(specs).every((n) => n.startsWith(".")));
  const end = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > end) throw new Error(`background run ${id} did not finish`);
    await Bun.sleep(25);
  }
}
