/**
 * A full disk, a read-only disk, and a cpilot killed while writing its records: the check's
 * result must still reach the agent and the person, nothing the user wrote may be lost, and
 * a torn record is never read as valid. The project sits on a small tmpfs of its own
 * (mounting needs root: this machine's tests and CI run as root).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { cpilot, cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";

const CONFIG = JSON.stringify({
  callbacks: [
    { name: "lint", pattern: "*.txt", run: "! grep -l BAD $CP_CHANGED_FILES", timeout: 10 },
  ],
});

const mounts: string[] = [];
afterEach(() => {
  for (const dir of mounts.splice(0)) {
    spawnSync("umount", ["-l", dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

const sh = (cwd: string, ...args: string[]) => {
  const r = spawnSync(args[0] as string, args.slice(1), { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
};

/** A git project on a 2 MB tmpfs of its own, its config committed. */
function smallDisk(): { mount: string; dir: string; fill(): void; readOnly(): void } {
  const mount = tempDir("cpilot-disk-");
  sh(mount, "mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mount);
  mounts.push(mount);
  const dir = join(mount, "p");
  mkdirSync(dir);
  sh(dir, "git", "init", "-q");
  writeFileSync(join(dir, "callbacks.config.json"), CONFIG);
  sh(dir, "git", "add", "-A");
  sh(dir, "git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init");
  return {
    mount,
    dir,
    // dd stops at the first full write: every byte left is taken
    fill: () => void spawnSync("dd", ["if=/dev/zero", `of=${join(mount, "fill")}`, "bs=4k"]),
    readOnly: () => sh(mount, "mount", "-o", "remount,ro", mount),
  };
}

/** `cpilot hook claude` with `payload`; its stdout and exit code. */
function claude(dir: string, payload: Record<string, unknown>) {
  const r = spawnSync(cpilotBinary(), ["hook", "claude"], {
    cwd: dir,
    input: JSON.stringify({ session_id: "disk", cwd: dir, ...payload }),
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: tempDir("cpilot-disk-home-"),
      ...runtimeEnv(),
    },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout };
}

const bashDone = (command: string) => ({
  hook_event_name: "PostToolUse",
  tool_name: "Bash",
  tool_input: { command },
  tool_response: { stdout: "" },
});

const root = process.getuid?.() === 0;

describe("the shell-edits record cannot be written", () => {
  for (const trouble of ["full", "read-only"] as const) {
    test.skipIf(!root)(
      `a ${trouble} disk: the shell's edit is still checked and told`,
      () => {
        const disk = smallDisk();
        claude(disk.dir, { hook_event_name: "UserPromptSubmit", prompt: "go" });
        writeFileSync(join(disk.dir, "b.txt"), "BAD mine\n");
        if (trouble === "full") disk.fill();
        else disk.readOnly();
        const r = claude(disk.dir, bashDone("echo 'BAD mine' > b.txt"));
        expect(r.code).toBe(0);
        expect(r.out).toContain("'lint' failed on b.txt");
        expect(r.out).toContain("state could not be saved");
        expect(readFileSync(join(disk.dir, "b.txt"), "utf8")).toBe("BAD mine\n");
      },
      60_000,
    );
  }

  test("a holder killed with the record's lock held and its temp file left: the next look goes on", () => {
    const dir = tempDir("cpilot-killed-", { git: true });
    writeFileSync(join(dir, "callbacks.config.json"), CONFIG);
    claude(dir, { hook_event_name: "UserPromptSubmit", prompt: "go" });
    const [session] = readdirSync(join(dir, ".git/cpilot/sessions"));
    const folder = join(dir, ".git/cpilot/sessions", session as string);
    // what kill -9 in the middle of an update leaves: the lock naming a dead process, a temp file
    const dead = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" }).stdout.trim();
    symlinkSync(JSON.stringify({ pid: Number(dead), started: 1 }), join(folder, "record.lock"));
    writeFileSync(join(folder, ".tree-snapshot.json.0123abcd.tmp"), '{"files":{"b.t');
    writeFileSync(join(dir, "b.txt"), "BAD\n");
    const r = claude(dir, bashDone("echo BAD > b.txt"));
    expect(r.out).toContain("'lint' failed on b.txt");
  }, 60_000);
});

describe("the result cache cannot be written", () => {
  for (const trouble of ["full", "read-only"] as const) {
    test.skipIf(!root)(
      `a ${trouble} disk: the check's failure is delivered, no torn record kept`,
      () => {
        const disk = smallDisk();
        writeFileSync(join(disk.dir, "a.txt"), "BAD\n");
        sh(disk.dir, "git", "add", "a.txt");
        if (trouble === "full") disk.fill();
        else disk.readOnly();
        const r = cpilot(["check", "a.txt"], { cwd: disk.dir });
        expect(r.code).toBe(1);
        expect(`${r.stdout}${r.stderr}`).toContain("✗ lint (a.txt");
        expect(readFileSync(join(disk.dir, "a.txt"), "utf8")).toBe("BAD\n");
        const records = join(disk.dir, ".git/cpilot/cache/results");
        for (const name of existsSync(records) ? readdirSync(records) : []) {
          if (!name.endsWith(".json")) continue;
          expect(() => JSON.parse(readFileSync(join(records, name), "utf8"))).not.toThrow();
        }
        // room again: the next check still fails (no pass was kept from the full disk)
        if (trouble === "read-only") sh(disk.mount, "mount", "-o", "remount,rw", disk.mount);
        rmSync(join(disk.mount, "fill"), { force: true });
        expect(cpilot(["check", "a.txt"], { cwd: disk.dir }).code).toBe(1);
      },
      60_000,
    );
  }
});
