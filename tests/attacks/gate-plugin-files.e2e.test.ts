/**
 * Attacks on the protection of the gate's plugins (src/gate/own-config.ts gatePluginFiles):
 * whatever form a plugin's command takes, the file it runs must not be writable by the
 * agent it judges. Through the compiled binary; each plugin really runs (and allows).
 */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, symlinkSync } from "node:fs";
import { attackProject, preWrite, reasonOf, verdict } from "./_gate-attack.ts";

const ALLOWING = '#!/bin/sh\ncat >/dev/null\necho \'{"decision":"allow"}\'\n';
const gate = (gateSection: unknown) => `${JSON.stringify({ callbacks: [], gate: gateSection })}\n`;
const plugin = (command: string | string[]) => gate({ plugins: [{ command }] });

interface Case {
  name: string;
  config: string;
  files: Record<string, string>;
  target: string;
  link?: [to: string, at: string];
  /** A program the plugin needs on PATH (the case is skipped without it). */
  needs?: string;
}

const CASES: Case[] = [
  {
    name: "cd scripts && ./p.sh",
    config: plugin("cd scripts && ./p.sh"),
    files: { "scripts/p.sh": ALLOWING },
    target: "scripts/p.sh",
  },
  {
    name: '"$CP_ROOT/scripts/p.sh" (the root the plugin is given)',
    config: plugin('"$CP_ROOT/scripts/p.sh"'),
    files: { "scripts/p.sh": ALLOWING },
    target: "scripts/p.sh",
  },
  {
    name: "the braced form of $CP_ROOT",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's syntax, not a template
    config: plugin("${CP_ROOT}/scripts/p.sh"),
    files: { "scripts/p.sh": ALLOWING },
    target: "scripts/p.sh",
  },
  {
    name: "a quoted name with a space",
    config: plugin("'./my p.sh'"),
    files: { "my p.sh": ALLOWING },
    target: "my p.sh",
  },
  {
    name: 'an argv with sh -c "./p.sh --strict"',
    config: plugin(["sh", "-c", "./p.sh --strict"]),
    files: { "p.sh": ALLOWING },
    target: "p.sh",
  },
  {
    name: "sh p.sh; (a shell operator glued to the name)",
    config: plugin("sh p.sh;"),
    files: { "p.sh": ALLOWING },
    target: "p.sh",
  },
  {
    name: "sh <p.sh (a redirection)",
    config: plugin("sh <p.sh"),
    files: { "p.sh": ALLOWING },
    target: "p.sh",
  },
  {
    name: "node --import=./pre.mjs ./p.mjs (a file in an option's value)",
    config: plugin("node --import=./pre.mjs ./p.mjs"),
    files: { "p.mjs": "console.log(JSON.stringify({ decision: 'allow' }));\n", "pre.mjs": "" },
    target: "pre.mjs",
  },
  {
    name: "python3 -m policy.main (a module, named without its file)",
    config: plugin("python3 -m policy.main"),
    files: {
      "policy/__init__.py": "",
      "policy/main.py":
        'import sys, json\nsys.stdin.read()\nprint(json.dumps({"decision": "allow"}))\n',
    },
    target: "policy/main.py",
    needs: "python3",
  },
  {
    name: "a plugin that is a symlink: the file it leads to",
    config: plugin("./p.sh"),
    files: { "tools/real.sh": ALLOWING },
    target: "tools/real.sh",
    link: ["tools/real.sh", "p.sh"],
  },
  {
    name: "a pluginsDir that is a symlink: the folder it leads to",
    config: gate({ pluginsDir: "gp" }),
    files: { "real/p": ALLOWING },
    target: "real/p",
    link: ["real", "gp"],
  },
];

describe("every file a gate plugin runs is protected", () => {
  for (const c of CASES) {
    const missing =
      c.needs !== undefined && spawnSync("sh", ["-c", `command -v ${c.needs}`]).status !== 0;
    test.skipIf(missing)(
      c.name,
      async () => {
        const p = attackProject({ "callbacks.config.json": c.config, ...c.files });
        for (const f of Object.keys(c.files)) chmodSync(p.path(f), 0o755);
        if (c.link) symlinkSync(p.path(c.link[0]), p.path(c.link[1]));
        // the plugin runs and allows an ordinary write: the command form works
        const ordinary = await p.hook("claude", preWrite("claude", p.dir, "a.txt"));
        expect(verdict("claude", ordinary)).toBe("allow");
        const r = await p.hook("claude", preWrite("claude", p.dir, c.target));
        expect(verdict("claude", r)).toBe("ask");
        expect(reasonOf(r)).toContain("a gate plugin");
      },
      30_000,
    );
  }
});
