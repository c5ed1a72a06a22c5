import type { OutputParser } from "./parser.ts";
import { biome, biomeJson } from "./parsers/biome.ts";
import { nodeError, pythonTraceback } from "./parsers/crash.ts";
import { eslintCompact, eslintJson, eslintStylish, eslintUnix } from "./parsers/eslint.ts";
import { flake8 } from "./parsers/flake8.ts";
import { black, prettier, rustfmt } from "./parsers/format-check.ts";
import { generic } from "./parsers/generic.ts";
import { githubCommands } from "./parsers/github-commands.ts";
import { gnu } from "./parsers/gnu.ts";
import { go } from "./parsers/go.ts";
import { mypyJson } from "./parsers/mypy-json.ts";
import { oxlint } from "./parsers/oxlint.ts";
import { pylint, pylintJson } from "./parsers/pylint.ts";
import { pyright } from "./parsers/pyright.ts";
import { ruffFull, ruffJson } from "./parsers/ruff.ts";
import { rustc, rustJson } from "./parsers/rustc.ts";
import { shellcheck, shellcheckJson } from "./parsers/shellcheck.ts";
import { bunTest } from "./parsers/test-runners/bun-test.ts";
import { cargoTest } from "./parsers/test-runners/cargo-test.ts";
import { goTest } from "./parsers/test-runners/go-test.ts";
import { jest } from "./parsers/test-runners/jest.ts";
import { pytest } from "./parsers/test-runners/pytest.ts";
import { vitest } from "./parsers/test-runners/vitest.ts";
import { tsc } from "./parsers/tsc.ts";
import { xo } from "./parsers/xo.ts";

/** Most particular first: a line one parser claims is not read by the next. */
export const PARSERS: readonly OutputParser[] = [
  rustJson,
  mypyJson,
  ruffJson,
  biomeJson,
  githubCommands,
  eslintJson,
  pylintJson,
  shellcheckJson,
  tsc,
  biome,
  oxlint,
  rustc,
  ruffFull,
  shellcheck,
  xo,
  eslintStylish,
  eslintCompact,
  eslintUnix,
  pylint,
  pyright,
  flake8,
  gnu,
  go,
  black,
  prettier,
  rustfmt,
  pytest,
  jest,
  vitest,
  bunTest,
  cargoTest,
  goTest,
  pythonTraceback,
  nodeError,
];

export const GENERIC: OutputParser = generic;
