/**
 * A project reached through a symlinked path (a linked home folder, /tmp on macOS): Claude
 * Code spells the edited file through the link. Its path must be read the same way every
 * agent's is (src/match/root-relative.ts): once Claude Code had its own helper, and with
 * the link `hook gemini` ran the check while `hook claude` silently ran nothing.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../helpers/tmp.ts";
import { CLAUDE_ENV, cpilot, postBatch, postWrite } from "./_helpers.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A project whose callbacks write `ran.txt` (one per file, one per batch), and a link to it.
 * The hook's cwd is the project's own path (what the process's cwd reads as), the edited
 * file is spelled through the link (what the agent was given).
 */
function linkedProject(): { project: string; link: string; ran: string } {
  const base = tempDir("cpilot-claude-link-");
  dirs.push(base);
  const real = join(base, "real");
  mkdirSync(real);
  const project = tempDir("cpilot-claude-link-project-", { git: true });
  dirs.push(project);
  rmSync(real, { recursive: true });
  symlinkSync(project, real);
  const ran = join(project, "ran.txt");
  writeFileSync(
    join(project, "callbacks.config.json"),
    JSON.stringify({
      callbacks: [
        {
          name: "file",
          pattern: "*.ts",
          run: `echo file "$@" >> ${ran}`,
          timeout: 10,
          per: "file",
        },
        {
          name: "batch",
          pattern: "*.ts",
          run: `echo batch "$@" >> ${ran}`,
          timeout: 10,
          per: "batch",
        },
      ],
    }),
  );
  writeFileSync(join(project, "a.ts"), "export const a = 1;\n");
  return { project, link: real, ran };
}

function hook(cwd: string, payload: Record<string, unknown>): void {
  const r = cpilot(["hook", "claude"], {
    cwd,
    env: CLAUDE_ENV,
    input: JSON.stringify({ session_id: "s1", cwd, ...payload }),
  });
  expect(r.code).toBe(0);
}

test("PostToolUse on a file spelled through the link runs the callback", () => {
  const { project, link, ran } = linkedProject();
  hook(project, postWrite(join(link, "a.ts")));
  expect(existsSync(ran)).toBe(true);
  expect(readFileSync(ran, "utf8")).toBe("file a.ts\n");
});

test("PostToolBatch on files spelled through the link runs the callback", () => {
  const { project, link, ran } = linkedProject();
  hook(project, postBatch([join(link, "a.ts")]));
  expect(existsSync(ran)).toBe(true);
  expect(readFileSync(ran, "utf8")).toBe("batch a.ts\n");
});
