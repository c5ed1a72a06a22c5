// `npm run release`: cpilot for every platform into dist/release/: one binary per target,
// SHA256SUMS, and the npm package tarballs in dist/release/npm/. Bun's runtime for each
// target comes from the @oven npm packages the lock file pins (scripts/release/runtimes.ts),
// so nothing is downloaded from anywhere but the npm registry, and only on the first run.
//
//   bun scripts/release.ts [--targets linux-x64,linux-arm64] [--npm-platforms host] [--out DIR]
// --npm-platforms host packs only this machine's platform package (what a test installs):
// packing the other five ~100 MB binaries is most of a full build's time.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { VERSION } from "../src/version.ts";
import { recordBytecodeOrder } from "./_bytecode-order.ts";
import { compile, currentCommit } from "./compile.ts";
import { inputsFingerprint, releaseKey } from "./release/inputs.ts";
import { packNpmPackages } from "./release/npm-packages.ts";
import { ensureRuntime, runtimePath } from "./release/runtimes.ts";
import { binaryName, hostTarget, TARGETS, type Target } from "./release/targets.ts";

const repo = resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    targets: { type: "string" },
    "npm-platforms": { type: "string", default: "all" },
    out: { type: "string" },
  },
});
const out = resolve(values.out ?? join(repo, "dist", "release"));
const targets = pickTargets(values.targets);
if (values["npm-platforms"] !== "all" && values["npm-platforms"] !== "host") {
  fail(`Cannot pack "${values["npm-platforms"]}" platform packages: say all or host`);
}
const packed = targets.filter((t) => values["npm-platforms"] === "all" || t === hostTarget());
const root = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"));
if (root.version !== VERSION) {
  fail(
    `Cannot release "${root.version}": src/version.ts says ${VERSION}\nhint: bump both together`,
  );
}

// The first build's folder (a ~110 MB binary): removed however the release ends.
let work: string | undefined;
try {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const commit = currentCommit(repo);
  const host = hostTarget();
  // A first build for this machine records the bytecode the hook calls use; every target's
  // build lays it out first (the order names functions by their code: see _bytecode-order.ts).
  work = mkdtempSync(join(tmpdir(), "cpilot-release-"));
  const first = join(work, "cpilot");
  compile({ outfile: first, commit, targetName: host?.name ?? "host" });
  const bytecodeOrder = recordBytecodeOrder(first, work);
  const sums: string[] = [];
  for (const target of targets) {
    const started = Date.now();
    const outfile = join(out, binaryName(target));
    // This machine's own target needs no runtime package: bun wraps itself.
    const cross =
      target === host ? undefined : { bunTarget: target.bunTarget, runtime: runtime(target) };
    compile({
      outfile,
      commit,
      targetName: target.name,
      bytecodeOrder,
      ...(cross ? { cross } : {}),
    });
    const bytes = readFileSync(outfile);
    sums.push(`${createHash("sha256").update(bytes).digest("hex")}  ${binaryName(target)}\n`);
    const mib = (statSync(outfile).size / 2 ** 20).toFixed(1);
    process.stderr.write(`built ${binaryName(target)} (${mib} MiB, ${Date.now() - started} ms)\n`);
  }
  writeFileSync(join(out, "SHA256SUMS"), sums.join(""));
  const tarballs = packNpmPackages(
    repo,
    root,
    packed,
    out,
    join(out, ".npm-stage"),
    join(out, "npm"),
  );
  rmSync(join(out, ".npm-stage"), { recursive: true, force: true });
  process.stderr.write(`packed ${tarballs.join(", ")} into ${join(out, "npm")}\n`);
  writeFileSync(join(out, "INPUTS"), `${inputsFingerprint(repo, releaseKey(targets, packed))}\n`);
} catch (err) {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
  fail((err as Error).message);
}
if (work !== undefined) rmSync(work, { recursive: true, force: true });

function runtime(target: Target): string {
  return runtimePath(repo, target) ?? ensureRuntime(repo, target);
}

function pickTargets(list: string | undefined): Target[] {
  if (list === undefined) return [...TARGETS];
  return list.split(",").map((name) => {
    const target = TARGETS.find((t) => t.name === name);
    if (target === undefined) {
      fail(
        `Cannot build for "${name}": no such target\nhint: one of ${TARGETS.map((t) => t.name).join(", ")}`,
      );
    }
    return target;
  });
}

function fail(message: string): never {
  process.stderr.write(`release failed: ${message}\n`);
  process.exit(1);
}
