// What an executable is, read from its header: enough to check a cross-compiled binary is
// the right format and architecture for its platform without running it.
import { closeSync, openSync, readSync } from "node:fs";

export interface ExecutableFormat {
  kind: "elf" | "mach-o" | "pe" | "unknown";
  arch: "x64" | "arm64" | "other";
  /** ELF: the dynamic loader it asks for (glibc's or musl's). */
  interpreter?: string;
  /** Mach-O: carries a code signature (arm64 macOS refuses to run a binary without one). */
  signed?: boolean;
  /** PE: a console program (not a GUI one that would get no terminal). */
  console?: boolean;
}

/** Parse the header of the executable at `path`. */
export function executableFormat(path: string): ExecutableFormat {
  const head = Buffer.alloc(64 * 1024);
  const fd = openSync(path, "r");
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (head.readUInt32BE(0) === 0x7f454c46) return elf(head);
  if (head.readUInt32LE(0) === 0xfeedfacf) return machO(head);
  if (head.toString("latin1", 0, 2) === "MZ") return pe(head);
  return { kind: "unknown", arch: "other" };
}

function elf(b: Buffer): ExecutableFormat {
  const machine = b.readUInt16LE(18);
  const arch = machine === 0x3e ? "x64" : machine === 0xb7 ? "arm64" : "other";
  const phoff = Number(b.readBigUInt64LE(32));
  const phentsize = b.readUInt16LE(54);
  const phnum = b.readUInt16LE(56);
  let interpreter: string | undefined;
  for (let i = 0; i < phnum; i++) {
    const ph = phoff + i * phentsize;
    if (b.readUInt32LE(ph) !== 3) continue; // PT_INTERP
    const offset = Number(b.readBigUInt64LE(ph + 8));
    const size = Number(b.readBigUInt64LE(ph + 32));
    interpreter = b.toString("latin1", offset, offset + size).replace(/\0+$/, "");
  }
  return { kind: "elf", arch, ...(interpreter ? { interpreter } : {}) };
}

function machO(b: Buffer): ExecutableFormat {
  const cpu = b.readUInt32LE(4);
  const arch = cpu === 0x01000007 ? "x64" : cpu === 0x0100000c ? "arm64" : "other";
  const ncmds = b.readUInt32LE(16);
  let at = 32;
  let signed = false;
  for (let i = 0; i < ncmds && at + 8 <= b.length; i++) {
    if (b.readUInt32LE(at) === 0x1d) signed = true; // LC_CODE_SIGNATURE
    at += b.readUInt32LE(at + 4);
  }
  return { kind: "mach-o", arch, signed };
}

function pe(b: Buffer): ExecutableFormat {
  const header = b.readUInt32LE(0x3c);
  if (b.toString("latin1", header, header + 4) !== "PE\0\0")
    return { kind: "unknown", arch: "other" };
  const machine = b.readUInt16LE(header + 4);
  const arch = machine === 0x8664 ? "x64" : machine === 0xaa64 ? "arm64" : "other";
  const subsystem = b.readUInt16LE(header + 24 + 68);
  return { kind: "pe", arch, console: subsystem === 3 };
}
