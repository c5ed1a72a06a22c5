/** Marks a hook cpilot wrote, so install is idempotent and uninstall knows its own. */
export const HOOK_MARKER = "# cpilot-pre-commit-hook";

export const CHAINED_SUFFIX = ".pre-cpilot";

/**
 * Runs `cpilot check --staged` with the cpilot on PATH, else node_modules/.bin (git runs
 * hooks from the top of the work tree), else says what is missing and how to commit anyway.
 */
export function runnerLines(): string[] {
  return [
    "if command -v cpilot >/dev/null 2>&1; then",
    "  cpilot check --staged || exit $?",
    "elif [ -x node_modules/.bin/cpilot ]; then",
    "  node_modules/.bin/cpilot check --staged || exit $?",
    "else",
    `  echo "cpilot: Cannot run the pre-commit check: cpilot is not on PATH and node_modules/.bin/cpilot is missing" >&2`,
    `  echo "hint: install cpilot (npm install --save-dev cpilot, or put its binary on PATH); git commit --no-verify skips the check once" >&2`,
    "  exit 1",
    "fi",
  ];
}

export function hookScript(): string {
  return [
    "#!/bin/sh",
    `${HOOK_MARKER}: runs \`cpilot check --staged\` before each commit.`,
    `# Written by \`cpilot install git\`; \`cpilot uninstall git\` removes it and puts back the hook it runs first.`,
    `chained="$(dirname "$0")/pre-commit${CHAINED_SUFFIX}"`,
    `if [ -x "$chained" ]; then "$chained" "$@" || exit $?; fi`,
    ...runnerLines(),
    "",
  ].join("\n");
}

export const BLOCK_START = "# >>> cpilot: `cpilot check --staged` (cpilot install git)";
export const BLOCK_END = "# <<< cpilot";

export function huskyBlock(): string {
  return [BLOCK_START, ...runnerLines(), BLOCK_END].join("\n");
}
