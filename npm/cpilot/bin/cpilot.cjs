#!/usr/bin/env node
"use strict";
// `npx cpilot …`: start this platform's cpilot binary (from the optional dependency npm
// installed for it) with the same arguments, and end the way it ends. Hooks in shared
// settings files come through here (portable); machine-local ones (`cpilot install --user`,
// Claude Code's --local) call the binary's own path and skip this launcher (and Node).
const { spawn } = require("node:child_process");
const { binaryPath } = require("../lib/binary-path.cjs");

let binary;
try {
  binary = binaryPath();
} catch (err) {
  process.stderr.write(`cpilot: ${err.message}\n`);
  process.exit(2);
}
const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
// Ctrl-C reaches the binary from the terminal itself (same process group): passing SIGINT
// on as well would look like a second Ctrl-C, which means "quit now". Signals sent to this
// launcher alone (a parent's kill) are passed on.
process.on("SIGINT", () => {});
for (const signal of ["SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (err) => {
  process.stderr.write(`cpilot: Cannot start "${binary}": ${err.message}\n`);
  process.exit(2);
});
child.on("exit", (code, signal) => {
  if (signal === null) process.exit(code ?? 1);
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
});
