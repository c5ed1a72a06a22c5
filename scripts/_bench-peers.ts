// The tools cpilot is compared with, found the way their users run them: lefthook's and
// prek's native binaries from their per-platform npm packages (not node_modules/.bin, where
// both are Node scripts that start the binary: ~80 ms of Node per call would be charged to
// them), and lint-staged through node_modules/.bin/lint-staged, the Node launcher its users
// run. Installed on first use below node_modules/.cache/cpilot-bench/tools, scripts off:
// lefthook's postinstall would install git hooks into whatever repo ran npm. Neither native
// package downloads anything at install time: each binary ships inside its npm package.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";

export const PEER_VERSIONS = { lefthook: "2.2.2", prek: "0.5.3", lintStaged: "17.6.1" } as const;

export interface Peer {
  /** What the report calls it: name and version. */
  readonly label: string;
  /** The file that is executed: a native binary, or (lint-staged) the Node launcher. */
  readonly path: string;
}

export interface Peers {
  readonly lefthook?: Peer;
  readonly prek?: Peer;
  readonly lintStaged?: Peer;
}

/** Install (once) and find the peers; a peer that cannot be installed is left out, with a note on stderr. */
export function findPeers(repoRoot: string): Peers {
  const tools = join(repoRoot, "node_modules", ".cache", "cpilot-bench", "tools");
  const modules = join(tools, "node_modules");
  if (!existsSync(join(modules, "lint-staged", "package.json")) || !prekPackage(modules)) {
    mkdirSync(tools, { recursive: true });
    const r = spawnSync(
      "npm",
      [
        "install",
        "--no-save",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "--prefix",
        tools,
        `lefthook@${PEER_VERSIONS.lefthook}`,
        `@j178/prek@${PEER_VERSIONS.prek}`,
        `lint-staged@${PEER_VERSIONS.lintStaged}`,
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    if (r.status !== 0) process.stderr.write("Cannot install the peers: npm install failed\n");
  }
  const lefthookBin = join(
    modules,
    `lefthook-${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`,
    "bin",
    "lefthook",
  );
  const prekDir = prekPackage(modules);
  const lintStagedBin = join(modules, ".bin", "lint-staged");
  const peers: { -readonly [K in keyof Peers]: Peer } = {};
  if (existsSync(lefthookBin))
    peers.lefthook = { label: `lefthook ${PEER_VERSIONS.lefthook}`, path: lefthookBin };
  if (prekDir) peers.prek = { label: `prek ${PEER_VERSIONS.prek}`, path: join(prekDir, "prek") };
  if (existsSync(lintStagedBin))
    peers.lintStaged = { label: `lint-staged ${PEER_VERSIONS.lintStaged}`, path: lintStagedBin };
  for (const name of ["lefthook", "prek", "lintStaged"] as const) {
    if (!peers[name]) process.stderr.write(`${name} is not installed here: left out\n`);
  }
  return peers;
}

/** The folder of prek's per-platform package npm installed for this machine (gnu or musl). */
function prekPackage(modules: string): string | undefined {
  const listPath = join(modules, "@j178", "prek", "platforms.json");
  if (!existsSync(listPath)) return undefined;
  const list = JSON.parse(readFileSync(listPath, "utf8")) as {
    packageName: string;
    os: string[];
    cpu: string[];
  }[];
  return list
    .filter((p) => p.os.includes(process.platform) && p.cpu.includes(process.arch))
    .map((p) => join(modules, p.packageName))
    .find((dir) => existsSync(join(dir, "prek")));
}

/** "native (ELF)" or what else the file executed is: "Node script (#!/usr/bin/env node)". */
export function executableKind(path: string): string {
  const head = readFileSync(realpathSync(path)).subarray(0, 64);
  if (head[0] === 0x7f && head.subarray(1, 4).toString() === "ELF") return "native (ELF)";
  if (head.subarray(0, 4).toString("hex") === "cffaedfe") return "native (Mach-O)";
  if (head.subarray(0, 2).toString() === "#!") return `script (${head.toString().split("\n")[0]})`;
  return "unknown format";
}
