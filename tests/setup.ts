// Preloaded by `bun test` (bunfig.toml): temp folders made through tests/helpers/tmp.ts are
// removed once every test has run, so a developer's /tmp does not fill up run after run.
// Children that inherit this process's environment (agent CLIs calling `cpilot hook`) answer
// hook calls the way tests/helpers/binary.ts says: in-process, or through the hook server.
import { afterAll } from "bun:test";
import { hookServerEnv } from "./helpers/binary.ts";
import { removeTempDirs } from "./helpers/tmp.ts";

Object.assign(process.env, hookServerEnv());
afterAll(() => removeTempDirs());
