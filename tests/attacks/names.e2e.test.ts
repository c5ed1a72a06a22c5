// File names that are not UTF-8 reach callbacks byte for byte, through the compiled binary:
// from git (`cpilot check`) and from an agent's hook payload, in argv, the environment and
// the NUL list; JSON (stdin) carries each stray byte as the escape \udcXX.
import { expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilotBinary, runtimeEnv } from "../helpers/binary.ts";
import { attackProject, run } from "./_helpers.ts";

// `café.txt` written in Latin-1: 0xE9 is not UTF-8 on its own
const RAW = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74, 0x78, 0x74]);
const NUL = Buffer.from([0]);

const RECORD = `printf '%s\\0' "$@" > args.bin; cp "$CP_CHANGED_FILES_NUL" nul.bin
printf '%s' "$CP_CHANGED_FILES" > env.bin; printf '%s' "\${CP_CHANGED_FILE-}" > one.bin; cat > stdin.json`;

function rawProject(callback: Record<string, unknown>): string {
  const dir = attackProject([{ name: "rec", pattern: "*.txt", timeout: 30, ...callback }]);
  writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), RAW]), "x\n");
  execFileSync("git", ["add", "-A"], { cwd: dir });
  return dir;
}

const bytes = (dir: string, name: string) => readFileSync(join(dir, name));

test("a name that is not UTF-8 reaches a bash callback's argv, env and NUL list unchanged", async () => {
  const dir = rawProject({ run: RECORD });
  const r = await run(dir, ["check", "--staged"]);
  expect(r.code).toBe(0);
  expect(bytes(dir, "args.bin")).toEqual(Buffer.concat([RAW, NUL]));
  expect(bytes(dir, "nul.bin")).toEqual(Buffer.concat([RAW, NUL]));
  expect(bytes(dir, "env.bin")).toEqual(RAW);
  // JSON cannot carry the byte: it comes as the escape \udce9
  const stdin = readFileSync(join(dir, "stdin.json"), "utf8");
  expect(stdin).toContain('"caf\\udce9.txt"');
  expect(JSON.parse(stdin).files).toEqual(["caf\udce9.txt"]);
}, 60_000);

test("per file and as an argv array, the name is the same bytes", async () => {
  const dir = rawProject({
    run: ["bash", "-c", RECORD, "rec", "{files}"],
    per: "file",
  });
  const r = await run(dir, ["check", "--all"]);
  expect(r.code).toBe(0);
  expect(bytes(dir, "args.bin")).toEqual(Buffer.concat([RAW, NUL]));
  expect(bytes(dir, "one.bin")).toEqual(RAW);
}, 60_000);

test("a hook payload's name that is not UTF-8 reaches the callback as the same bytes", () => {
  const dir = rawProject({ run: RECORD });
  const path = Buffer.concat([Buffer.from(`${dir}/`), RAW]);
  // Raw bytes inside the JSON text, as an agent that passes a name through may send them.
  const head = Buffer.from(
    `{"session_id":"s1","cwd":${JSON.stringify(dir)},"hook_event_name":"PostToolUse","tool_name":"Write","tool_use_id":"t1","tool_response":{"type":"create"},"tool_input":{"content":"x","file_path":"`,
  );
  const payload = Buffer.concat([head, path, Buffer.from('"}}')]);
  const r = spawnSync(cpilotBinary(), ["hook", "claude"], {
    cwd: dir,
    input: payload,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: process.env.HOME ?? "/root",
      ...runtimeEnv(),
    },
    timeout: 60_000,
  });
  expect(r.status).toBe(0);
  expect(bytes(dir, "args.bin")).toEqual(Buffer.concat([RAW, NUL]));
  expect(bytes(dir, "nul.bin")).toEqual(Buffer.concat([RAW, NUL]));
}, 60_000);

/** `cpilot check -- NAME…` with each name as raw bytes on the command line (through bash). */
function checkNamed(dir: string, names: readonly Buffer[]) {
  // bash's printf %b turns \351 into the byte 0xE9: the kernel hands cpilot that byte
  const octal = (name: Buffer) =>
    [...name].map((b) => `\\${b.toString(8).padStart(3, "0")}`).join("");
  const args = names.map((name) => `"$(printf '%b' '${octal(name)}')"`).join(" ");
  return spawnSync("bash", ["-c", `exec "$0" check -- ${args}`, cpilotBinary()], {
    cwd: dir,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: process.env.HOME ?? "/root",
      ...runtimeEnv(),
    },
    timeout: 60_000,
  });
}

test("a name that is not UTF-8 given on the command line is that file, byte for byte", () => {
  const dir = rawProject({ run: RECORD });
  const r = checkNamed(dir, [RAW]);
  expect(r.stderr.toString()).not.toContain("no such file");
  expect(r.status).toBe(0);
  expect(bytes(dir, "args.bin")).toEqual(Buffer.concat([RAW, NUL]));
  expect(bytes(dir, "nul.bin")).toEqual(Buffer.concat([RAW, NUL]));
}, 60_000);

test("a folder named in bytes that are not UTF-8 gives its files; a deleted one git knows is checked", () => {
  const dir = rawProject({ run: RECORD });
  const folder = Buffer.from([0x64, 0xff]); // "d\xff"
  const inside = Buffer.concat([folder, Buffer.from("/in.txt")]);
  mkdirSync(Buffer.concat([Buffer.from(`${dir}/`), folder]));
  writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), inside]), "y\n");
  let r = checkNamed(dir, [folder]);
  expect(r.status).toBe(0);
  expect(bytes(dir, "args.bin")).toEqual(Buffer.concat([inside, NUL]));
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "x"], {
    cwd: dir,
  });
  unlinkSync(Buffer.concat([Buffer.from(`${dir}/`), RAW]));
  r = checkNamed(dir, [RAW]);
  expect(r.stderr.toString()).not.toContain("no such file");
  expect(r.status).toBe(0);
  expect(bytes(dir, "nul.bin")).toEqual(Buffer.concat([RAW, NUL]));
}, 60_000);
