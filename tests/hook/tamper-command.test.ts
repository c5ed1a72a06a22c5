/**
 * Which shell command texts make cpilot stop trusting its records: the ones that reach for
 * them or for where git looks, and not the everyday ones that merely look alike.
 */
import { expect, test } from "bun:test";
import { tamperingIn } from "../../src/hook/tamper-command.ts";

const PRIVATE = "/run/user/1000/cpilot";

test.each([
  ["rm -rf /run/user/1000/cpilot/turn-records", "private folder"],
  ["ls $XDG_RUNTIME_DIR", "private folder"],
  ["cat /tmp/cpilot-1000/turn-records/x/s1/tree-snapshot.json", "private folder"],
  ["sed -i s/a/b/ .git/cpilot/sessions/s1/tree-snapshot.json", ".git/cpilot"],
  ["CPILOT_RUNTIME_DIR=/tmp/x true", "CPILOT_"],
  ["echo '{}' | cpilot hook claude", "cpilot's hooks itself"],
  ["GIT_DIR=/tmp/crafted git status", "GIT_DIR"],
  ["export GIT_WORK_TREE=/elsewhere", "GIT_DIR"],
  ["git --git-dir=/tmp/x log", "another repository"],
  ["git config core.worktree /tmp/x", "core.worktree"],
  ["git config core.hooksPath /dev/null", "core.hooksPath"],
  ["git config --local CORE.BARE true", "core.bare"],
  ["echo 'gitdir: /tmp/crafted/.git' > .git.new", "gitdir:"],
  ["mv .git /tmp/away", "the .git folder itself"],
  ["rm -rf ./.git", "the .git folder itself"],
  ["cd sub && rm -rf .git; git init", "the .git folder itself"],
])("%p reaches for the records (%s)", (command, said) => {
  expect(tamperingIn(command, PRIVATE)).toContain(said);
});

test.each([
  "git status",
  "git add .gitignore src/a.ts",
  "cat .git/HEAD",
  "ls .github/workflows",
  "git clone https://example.invalid/x/y.git",
  "npx cpilot check --all",
  "cpilot install claude",
  "printf 'export const a = 1;\\n' > a.ts",
])("%p is an everyday command", (command) => {
  expect(tamperingIn(command, PRIVATE)).toBeNull();
});
