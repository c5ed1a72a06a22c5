// The platforms cpilot ships a binary for: the release file name, Bun's compile target,
// the @oven runtime package that holds that target's Bun, the npm package that carries the
// binary, and the executable format a test checks the file against.

export interface Target {
  /** "linux-x64": the release file is cpilot-<name>, plus .exe on Windows. */
  readonly name: string;
  /** `bun build --target` value. */
  readonly bunTarget: string;
  /** The npm package holding Bun's runtime for this target (a devDependency's optional dependency). */
  readonly runtimePackage: string;
  /** The runtime executable inside that package. */
  readonly runtimeFile: string;
  /** The npm package that carries cpilot's binary for this target, and its install filters. */
  readonly npm: {
    readonly name: string;
    readonly os: string;
    readonly cpu: string;
    readonly libc?: "glibc" | "musl";
  };
  readonly exe: "" | ".exe";
  /** What the file must be: checked by tests/release/formats. */
  readonly format: { readonly kind: "elf" | "mach-o" | "pe"; readonly arch: "x64" | "arm64" };
}

export const TARGETS: readonly Target[] = [
  {
    name: "linux-x64",
    bunTarget: "bun-linux-x64",
    runtimePackage: "@oven/bun-linux-x64",
    runtimeFile: "bin/bun",
    npm: { name: "@cpilot/linux-x64", os: "linux", cpu: "x64", libc: "glibc" },
    exe: "",
    format: { kind: "elf", arch: "x64" },
  },
  {
    name: "linux-arm64",
    bunTarget: "bun-linux-arm64",
    runtimePackage: "@oven/bun-linux-aarch64",
    runtimeFile: "bin/bun",
    npm: { name: "@cpilot/linux-arm64", os: "linux", cpu: "arm64", libc: "glibc" },
    exe: "",
    format: { kind: "elf", arch: "arm64" },
  },
  {
    name: "linux-x64-musl",
    bunTarget: "bun-linux-x64-musl",
    runtimePackage: "@oven/bun-linux-x64-musl",
    runtimeFile: "bin/bun",
    npm: { name: "@cpilot/linux-x64-musl", os: "linux", cpu: "x64", libc: "musl" },
    exe: "",
    format: { kind: "elf", arch: "x64" },
  },
  {
    name: "darwin-x64",
    bunTarget: "bun-darwin-x64",
    runtimePackage: "@oven/bun-darwin-x64",
    runtimeFile: "bin/bun",
    npm: { name: "@cpilot/darwin-x64", os: "darwin", cpu: "x64" },
    exe: "",
    format: { kind: "mach-o", arch: "x64" },
  },
  {
    name: "darwin-arm64",
    bunTarget: "bun-darwin-arm64",
    runtimePackage: "@oven/bun-darwin-aarch64",
    runtimeFile: "bin/bun",
    npm: { name: "@cpilot/darwin-arm64", os: "darwin", cpu: "arm64" },
    exe: "",
    format: { kind: "mach-o", arch: "arm64" },
  },
  {
    name: "windows-x64",
    bunTarget: "bun-windows-x64",
    runtimePackage: "@oven/bun-windows-x64",
    runtimeFile: "bin/bun.exe",
    npm: { name: "@cpilot/win32-x64", os: "win32", cpu: "x64" },
    exe: ".exe",
    format: { kind: "pe", arch: "x64" },
  },
];

/** The release file name of a target's binary. */
export function binaryName(target: Target): string {
  return `cpilot-${target.name}${target.exe}`;
}

/** The target this machine runs, when it is one cpilot ships. */
export function hostTarget(): Target | undefined {
  const cpu = process.arch === "arm64" ? "arm64" : process.arch;
  const os = process.platform;
  // A musl host (Alpine): the runtime reports no glibc version.
  const musl = os === "linux" && isMuslHost();
  return TARGETS.find(
    (t) =>
      t.npm.os === os && t.npm.cpu === cpu && (os !== "linux" || (t.npm.libc === "musl") === musl),
  );
}

function isMuslHost(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } };
  return report?.header?.glibcVersionRuntime === undefined;
}
