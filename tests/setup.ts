// Preloaded by `bun test` (bunfig.toml): temp folders made through tests/helpers/tmp.ts are
// removed once every test has run, so a developer's /tmp does not fill up run after run.
import { afterAll } from "bun:test";
import { removeTempDirs } from "./helpers/tmp.ts";

afterAll(() => removeTempDirs());
