/**
 * cpilot reads a shell command's patch as Codex does: the real Codex CLI 0.169 (no hooks,
 * model scripted on 127.0.0.1) runs each command with its shell tool, and where cpilot
 * reads a patch, Codex must have applied it (from the `cd` folder) and written nothing
 * else; where cpilot reads no patch, Codex must have written nothing. The spellings cpilot
 * refuses as unsure are run too, to show what Codex does with them.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { shellPatch } from "../../../src/agents/codex/shell-patch.ts";
import { readCodexPatch } from "../../../src/agents/kit/patch/codex-reading.ts";
import { tempDir } from "../../helpers/tmp.ts";
import { startFakeOpenAI } from "../../support/fake-openai.ts";
import { changed, snapshot } from "../kit/patch/_tree.ts";
import { codexCli } from "./_codex-cli.ts";

const add = (name: string) => `*** Begin Patch\n*** Add File: ${name}\n+x\n*** End Patch`;
const heredoc = (open: string, name: string, close = "EOF") => `${open}\n${add(name)}\n${close}\n`;

const COMMANDS = [
  heredoc("apply_patch <<'EOF'", "s1.txt"),
  heredoc('applypatch <<"EOF"', "s2.txt"),
  heredoc("apply_patch <<EOF", "s3.txt"),
  heredoc("cd sub && apply_patch <<'EOF'", "s4.txt"),
  heredoc("cd 'sub' && apply_patch <<'EOF'", "s5.txt"),
  heredoc("cd \"sub\" && apply_patch <<'EOF'", "s6.txt"),
  heredoc("apply_patch<<'EOF'", "s7.txt"),
  heredoc("apply_patch <<'EOF'  ", "s8.txt"),
  heredoc("apply_patch <<'PATCH'", "s9.txt", "PATCH"),
  heredoc("cd sub  &&  apply_patch  <<  'EOF'", "s10.txt"),
  heredoc("cd ./sub/ && apply_patch <<'EOF'", "s11.txt"),
  heredoc("apply_patch <<-EOF", "u1.txt"),
  `echo x; ${heredoc("apply_patch <<'EOF'", "u2.txt")}`,
  `${heredoc("apply_patch <<'EOF'", "u3.txt")}echo done\n`,
  ` ${heredoc("apply_patch <<'EOF'", "u4.txt")}`,
  heredoc("cd sub&&apply_patch <<'EOF'", "u5.txt"),
  heredoc("cd ~ && apply_patch <<'EOF'", "u6.txt"),
  "rg -n apply_patch . || true",
];

describe("real Codex CLI: which shell commands it applies as a patch", () => {
  test("cpilot's reading of each command matches what Codex wrote", async () => {
    const dir = tempDir("cpilot-codex-shell-", { git: true });
    mkdirSync(join(dir, "sub"));
    const seen: string[][] = [];
    let before = snapshot(dir);
    const onTurn = (turn: number) => {
      if (turn === 0 || turn - 1 !== seen.length) return;
      const after = snapshot(dir);
      seen.push(changed(before, after).filter((p) => !p.startsWith(join(dir, ".git"))));
      before = after;
    };
    const script = [
      ...COMMANDS.map((cmd) => [{ tool: "exec_command", args: { cmd } }]),
      [{ text: "done" }],
    ];
    const api = await startFakeOpenAI(script, onTurn);
    const home = codexCli.home(api.url);
    try {
      const run = await codexCli.run({
        cwd: dir,
        prompt: "run the commands",
        home,
        apiUrl: api.url,
      });
      expect(run.code).toBe(0);
      expect(seen.length).toBe(COMMANDS.length);
      const rows = COMMANDS.map((cmd, i) => {
        const read = shellPatch(cmd);
        const wrote = (seen[i] as string[]).map((p) => p.slice(dir.length + 1));
        if (read.kind !== "patch") return { cmd, read: read.kind, wrote };
        const reading = readCodexPatch(read.text);
        const base = resolve(dir, read.cd ?? ".");
        const named = reading.ok
          ? reading.files.map((f) => resolve(base, f.path).slice(dir.length + 1))
          : [];
        return { cmd, read: read.kind, wrote, named };
      });
      for (const row of rows) {
        if (row.read === "patch")
          expect({ cmd: row.cmd, wrote: row.wrote }).toEqual({
            cmd: row.cmd,
            wrote: row.named ?? [],
          });
        if (row.read === "none")
          expect({ cmd: row.cmd, wrote: row.wrote }).toEqual({ cmd: row.cmd, wrote: [] });
      }
      // what Codex does with the spellings cpilot refuses, for the record
      console.log(
        JSON.stringify(
          rows.filter((r) => r.read === "unsure"),
          null,
          1,
        ),
      );
    } finally {
      await api.close();
      rmSync(home, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
