/**
 * `cpilot doctor` against the OpenCode plugin `cpilot install opencode` writes today: a plugin
 * an older cpilot wrote (sealed or from before seals), or one the person edited, is a problem
 * with its step; a missing one is "not wired". `install` replaces an older cpilot's plugin and
 * never replaces or removes one the person edited.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binary, cpilot } from "../agents/claude/_helpers.ts";
import { tempDir } from "../helpers/tmp.ts";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

const SEAL = "// cpilot: sha1 of the lines above, to tell an edit apart: ";

/** A git project with cpilot on PATH and `cpilot install opencode` done. */
function installed() {
  const dir = tempDir("cpilot-doctor-opencode-", { git: true });
  const home = tempDir("cpilot-doctor-opencode-home-");
  const bin = tempDir("cpilot-doctor-opencode-bin-");
  dirs.push(dir, home, bin);
  symlinkSync(binary(), join(bin, "cpilot"));
  writeFileSync(join(dir, "callbacks.config.json"), JSON.stringify({ callbacks: [] }));
  const env = { HOME: home, PATH: `${bin}:/usr/bin:/bin` };
  const run = (args: string[]) => cpilot(args, { cwd: dir, env });
  expect(run(["install", "opencode"]).code).toBe(0);
  const plugin = join(dir, ".opencode", "plugins", "cpilot.ts");
  const problem = (): string | null =>
    (
      JSON.parse(run(["doctor", "--json"]).stdout).agents as {
        agent: string;
        problem: string | null;
      }[]
    ).find((a) => a.agent === "opencode")?.problem ?? null;
  return { dir, plugin, run, problem };
}

/** `text` without its seal line, as a cpilot from before seals wrote it. */
const unsealed = (text: string) => text.slice(0, text.lastIndexOf(SEAL));
/** `body` sealed as cpilot seals it. */
const sealed = (body: string) => `${body}${SEAL}${createHash("sha1").update(body).digest("hex")}\n`;

describe("cpilot doctor: the OpenCode plugin the current install writes", () => {
  test("a fresh plugin is no problem; an older cpilot's, sealed or not, is, and install replaces it", () => {
    const p = installed();
    const fresh = readFileSync(p.plugin, "utf8");
    expect(p.problem()).toBeNull();

    for (const old of [
      sealed(unsealed(fresh).replace("const STOP_GRACE_MS = 3000;", "const STOP_GRACE_MS = 5000;")),
      unsealed(fresh),
    ]) {
      writeFileSync(p.plugin, old);
      const problem = p.problem();
      expect(problem).toContain(p.plugin);
      expect(problem).toContain("run `cpilot install opencode` again");
      expect(problem).not.toContain("edited since");
      const again = p.run(["install", "opencode"]);
      expect(again.code, again.stderr).toBe(0);
      expect(readFileSync(p.plugin, "utf8")).toBe(fresh);
      expect(p.problem()).toBeNull();
    }
  });

  test("a plugin whose line ends a checkout turned into CRLF is neither edited nor outdated", () => {
    const p = installed();
    writeFileSync(p.plugin, readFileSync(p.plugin, "utf8").replaceAll("\n", "\r\n"));
    expect(p.problem()).toBeNull();
    const again = p.run(["install", "opencode"]);
    expect(again.code, again.stderr).toBe(0);
  });

  test("a plugin the person edited is named, and install and uninstall leave it as it is", () => {
    const p = installed();
    const edited = readFileSync(p.plugin, "utf8").replace(
      "const STOP_GRACE_MS = 3000;",
      "const STOP_GRACE_MS = 3000; // mine",
    );
    writeFileSync(p.plugin, edited);
    expect(p.problem()).toContain(`the plugin ${p.plugin} was edited since cpilot wrote it`);
    for (const action of ["install", "uninstall"]) {
      const r = p.run([action, "opencode"]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(
        `Cannot ${action} "${p.plugin}": it was edited since cpilot wrote it`,
      );
      expect(r.stderr).toContain("hint:");
      expect(readFileSync(p.plugin, "utf8")).toBe(edited);
    }
  });

  test("a missing plugin is not wired; a plugin cpilot did not write is not called outdated", () => {
    const p = installed();
    rmSync(p.plugin);
    expect(p.problem()).toBe("cpilot is not wired into opencode: run `cpilot install opencode`");
    mkdirSync(join(p.dir, ".opencode", "plugins"), { recursive: true });
    writeFileSync(p.plugin, "export const Mine = async () => ({});\n");
    expect(p.problem()).not.toContain("plugin");
    expect(existsSync(p.plugin)).toBe(true);
  });
});
