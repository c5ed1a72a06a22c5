// A folder checked to lie inside a root, held so names in it resolve in that very folder: one
// swapped for a symlink after the check cannot redirect a write. On Linux it is held open and
// reached as /proc/self/fd/N, each step down opened with O_NOFOLLOW. Elsewhere (macOS) it is
// checked again right before each step: a swap within microseconds is not caught there.
import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  realpathSync,
  statSync,
} from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { isInside } from "./contained-path.ts";

export interface VerifiedDir {
  readonly path: string;
  /** A path the kernel resolves to `name` inside this very folder. */
  at(name: string): string;
  recheck(): void;
  close(): void;
}

/** The folder changed between the check and the write: nothing was done. */
export class MovedError extends Error {
  override readonly name = "MovedError";
}

const PROC_FD = "/proc/self/fd";
let procUsable: boolean | undefined;

function byHandle(): boolean {
  procUsable ??= process.platform === "linux" && existsSync(PROC_FD);
  return procUsable;
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

function components(rel: string): string[] {
  const parts = rel.split(/[\\/]/).filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) throw new MovedError(`"${rel}" leads up, out of its root`);
  return parts;
}

function makeDir(path: string): void {
  try {
    mkdirSync(path);
  } catch (err) {
    if (code(err) !== "EEXIST") throw err;
  }
}

function openDir(path: string, follow: boolean, shown: string): number {
  try {
    return openSync(
      path,
      constants.O_RDONLY | constants.O_DIRECTORY | (follow ? 0 : constants.O_NOFOLLOW),
    );
  } catch (err) {
    const c = code(err);
    // O_NOFOLLOW with O_DIRECTORY on a symlink: ELOOP or ENOTDIR, by kernel.
    if (c === "ELOOP" || c === "EMLINK" || (c === "ENOTDIR" && isLink(path))) {
      throw new MovedError(`${shown} is a symlink now, not the folder that was checked`);
    }
    if (c === "ENOTDIR") {
      throw Object.assign(new Error(`${shown} is a file, not a folder`), { code: c });
    }
    throw err;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function openByHandle(root: string, parts: string[], create: boolean): VerifiedDir {
  let fd = openDir(root, true, root);
  const where = (n: number) => `${PROC_FD}/${n}`;
  try {
    if (readlinkSync(where(fd)) !== root) throw new MovedError(`${root} moved`);
    let shown = root;
    for (const part of parts) {
      shown = join(shown, part);
      if (create) makeDir(`${where(fd)}/${part}`);
      const next = openDir(`${where(fd)}/${part}`, false, shown);
      closeSync(fd);
      fd = next;
    }
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  const path = join(root, ...parts);
  let open = true;
  return {
    path,
    at: (name) => `${where(fd)}/${name}`,
    recheck() {
      // Informational: the walk already proved it.
      const now = readlinkSync(where(fd));
      if (!isInside(root, now)) throw new MovedError(`${path} moved to ${now}`);
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

function openByPath(root: string, parts: string[], create: boolean): VerifiedDir {
  let path = root;
  for (const part of parts) {
    path = join(path, part);
    if (create) makeDir(path);
    const st = lstatSync(path);
    if (st.isSymbolicLink()) {
      throw new MovedError(`${path} is a symlink now, not the folder that was checked`);
    }
    if (!st.isDirectory()) {
      throw Object.assign(new Error(`${path} is a file, not a folder`), { code: "ENOTDIR" });
    }
  }
  const first = statSync(path);
  const recheck = () => {
    let real: string;
    let st: { dev: number; ino: number };
    try {
      real = realpathSync(path);
      st = statSync(path);
    } catch (err) {
      throw new MovedError(`${path} is gone: ${(err as Error).message}`);
    }
    if (real !== path || st.dev !== first.dev || st.ino !== first.ino) {
      throw new MovedError(`${path} was replaced (now ${real})`);
    }
  };
  recheck();
  return { path, at: (name) => join(path, name), recheck, close: () => undefined };
}

/** Each step a real folder (no symlink), created with `create`. Throws a {@link MovedError} at a symlink or non-folder. */
export function openVerifiedDir(
  root: string,
  rel: string,
  options: {
    create?: boolean /** Tests: the walk by path, as off Linux. */;
    byPath?: boolean;
  } = {},
): VerifiedDir {
  if (!isAbsolute(root)) throw new Error(`openVerifiedDir needs an absolute root: ${root}`);
  const parts = components(rel);
  const create = options.create === true;
  return byHandle() && options.byPath !== true
    ? openByHandle(root, parts, create)
    : openByPath(root, parts, create);
}

export function below(root: string, path: string): string | null {
  if (!isInside(root, path)) return null;
  return relative(root, path).split(sep).join("/");
}
