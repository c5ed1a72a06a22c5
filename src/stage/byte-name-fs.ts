import { Buffer } from "node:buffer";
import * as fs from "node:fs";
import * as path from "node:path";
import { fsPath, viaPathModule } from "../util/path-bytes.ts";

// A name git gives is bytes: one that is not UTF-8 holds kept bytes (see path-bytes.ts) that
// node:path and node:fs would make U+FFFD. Every path the stage code touches goes through these.

export function join(...parts: string[]): string {
  // NUL is never in a path: it carries the parts through one byte-keeping computation
  return viaPathModule(parts.join("\0"), (s) => path.join(...s.split("\0"))) as string;
}

export function dirname(p: string): string {
  return viaPathModule(p, path.dirname) as string;
}

export function lstatSync(p: string, options: { throwIfNoEntry: false }): fs.Stats | undefined;
export function lstatSync(p: string): fs.Stats;
export function lstatSync(p: string, options?: { throwIfNoEntry: false }): fs.Stats | undefined {
  return options ? fs.lstatSync(fsPath(p), options) : fs.lstatSync(fsPath(p));
}

export function existsSync(p: string): boolean {
  return fs.existsSync(fsPath(p));
}

export function mkdirSync(p: string, options: { recursive: true }): void {
  fs.mkdirSync(fsPath(p), options);
}

export function renameSync(from: string, to: string): void {
  fs.renameSync(fsPath(from), fsPath(to));
}

export function unlinkSync(p: string): void {
  fs.unlinkSync(fsPath(p));
}

export function rmdirSync(p: string): void {
  fs.rmdirSync(fsPath(p));
}

export function rmSync(p: string, options: fs.RmOptions): void {
  fs.rmSync(fsPath(p), options);
}

export function chmodSync(p: string, mode: number): void {
  fs.chmodSync(fsPath(p), mode);
}

export function copyFileSync(from: string, to: string): void {
  fs.copyFileSync(fsPath(from), fsPath(to));
}

export function readFileSync(p: string): Buffer {
  return fs.readFileSync(fsPath(p));
}

export function writeFileSync(p: string, data: string | Uint8Array): void {
  fs.writeFileSync(fsPath(p), data);
}

export function copyLinkSync(from: string, to: string): void {
  fs.symlinkSync(fs.readlinkSync(fsPath(from), { encoding: "buffer" }), fsPath(to));
}

export function holdsAFile(dir: string): boolean {
  return holdsAFileAt(Buffer.from(fsPath(dir)));
}

function holdsAFileAt(dir: Buffer): boolean {
  let names: Buffer[];
  try {
    // Bun's readdir gives no file types with Buffer names: one lstat each
    names = fs.readdirSync(dir, { encoding: "buffer" });
  } catch {
    return false;
  }
  return names.some((name) => {
    const full = Buffer.concat([dir, Buffer.from("/"), name]);
    const stat = fs.lstatSync(full, { throwIfNoEntry: false });
    return stat !== undefined && (!stat.isDirectory() || holdsAFileAt(full));
  });
}
