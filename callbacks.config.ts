import { defineConfig } from "cpilot";

// cpilot checks itself: these run on every agent edit here, in the pre-commit hook and in CI.
export default defineConfig({
  callbacks: [
    {
      name: "format",
      description: "biome: format and fix lint where it safely can",
      pattern: ["*.ts", "*.json", "!package-lock.json", "!**/fixtures/"],
      run: ["./node_modules/.bin/biome", "check", "--write", "--no-errors-on-unmatched", "{files}"],
      timeout: 60,
      fixes: true,
      successMessage: "silent",
    },
    {
      name: "typecheck",
      description: "tsc --noEmit over the whole project",
      pattern: ["*.ts", "tsconfig.json", "package.json"],
      run: "./node_modules/.bin/tsc --noEmit -p .",
      timeout: 180,
      overlap: "replace",
      successMessage: "types OK",
    },
  ],
});
