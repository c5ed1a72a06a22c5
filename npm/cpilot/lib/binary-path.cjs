"use strict";
// Where this platform's cpilot binary is: the @cpilot/<platform>-<arch>[-musl] package npm
// installed as an optional dependency (npm skips the others by their os, cpu and libc).
const { existsSync } = require("node:fs");
const { dirname, join } = require("node:path");

/** Absolute path of the cpilot executable for this machine; throws when none is installed. */
function binaryPath() {
  const override = process.env.CPILOT_BINARY;
  if (override) return override;
  const base = `@cpilot/${process.platform}-${process.arch}`;
  const file = process.platform === "win32" ? "cpilot.exe" : "cpilot";
  const found = [base, `${base}-musl`]
    .map((name) => packageFile(name, file))
    .filter((path) => path !== undefined);
  // Both only where npm ignored the libc field (older npm): ask which C library runs here.
  if (found.length === 2) return isMusl() ? found[1] : found[0];
  if (found.length === 1) return found[0];
  throw new Error(
    `Cannot find a cpilot binary for "${process.platform}-${process.arch}": ${base} is not installed\n` +
      "hint: reinstall without --omit=optional (the binary is an optional dependency), " +
      "or download cpilot for your platform from the release page and set CPILOT_BINARY to its path",
  );
}

function packageFile(name, file) {
  try {
    const path = join(dirname(require.resolve(`${name}/package.json`)), file);
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

function isMusl() {
  try {
    return !process.report.getReport().header.glibcVersionRuntime;
  } catch {
    return false;
  }
}

module.exports = { binaryPath };
