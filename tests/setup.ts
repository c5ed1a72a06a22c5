// Preloaded by `bun test` (bunfig.toml): temp folders made through tests/helpers/tmp.ts are
// removed once every test has run, so a developer's /tmp does not fill up run after run.
// This process and the children that inherit its environment (agent CLIs calling `cpilot
// hook`) use the test run's own runtime folder (tests/helpers/binary.ts).
import { afterAll } from "bun:test";
import { AGENT_HOOK_FILES } from "../src/agents/registry.ts";
import { protectHookFiles } from "../src/config/hook-files.ts";
import { runtimeEnv } from "./helpers/binary.ts";
import { removeTempDirs } from "./helpers/tmp.ts";

Object.assign(process.env, runtimeEnv());
// What main.ts gives the gate in every cpilot process, for the tests that call it in-process.
protectHookFiles(AGENT_HOOK_FILES);
// Cleanup never fails a run: removal goes on in a process of its own (a busy machine once
// took longer than a hook's 5 s to remove them here), and anything that goes wrong is
// told on stderr, naming this file, instead of as "(unnamed) hook timed out".
afterAll(() => {
  try {
    removeTempDirs();
  } catch (err) {
    process.stderr.write(`tests/setup.ts: cannot remove temp folders: ${String(err)}\n`);
  }
});
