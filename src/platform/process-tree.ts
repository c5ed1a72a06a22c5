import { readdirSync, readFileSync } from "node:fs";

/** From `/proc/<pid>/task/<tid>/children` (Linux, CONFIG_PROC_CHILDREN); empty where it is not there. */
export function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const tid of tasks) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8");
    } catch {
      continue;
    }
    for (const word of text.split(" ")) {
      const child = Number(word);
      if (Number.isSafeInteger(child) && child > 1) out.push(child);
    }
  }
  return out;
}

export function descendantsOf(roots: readonly number[]): number[] {
  const seen = new Set<number>(roots);
  const out: number[] = [];
  const queue = [...roots];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    for (const child of childrenOf(pid)) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

function environOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/environ`, "latin1");
  } catch {
    return null;
  }
}

function holds(env: string, entry: string): boolean {
  return env.startsWith(`${entry}\0`) || env.includes(`\0${entry}\0`);
}

export function environHas(pid: number, entry: string): boolean {
  const env = environOf(pid);
  return env !== null && holds(env, entry);
}

const EXEC_LOOKS = 200;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * {@link environHas} for an adopted process: while one execs, /proc shows it an empty
 * environment and it would escape its run's end, so an empty one is looked at again.
 */
export function environHasSettled(pid: number, entry: string): boolean {
  for (let look = 1; ; look++) {
    const env = environOf(pid);
    if (env === null) return false;
    if (env !== "" || look >= EXEC_LOOKS) return holds(env, entry);
    Atomics.wait(pause, 0, 0, 1);
  }
}

/** A slow scan of every process, for rare paths. */
export function processesWithEnv(entry: string): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    if (name.charCodeAt(0) > 57) continue;
    const pid = Number(name);
    if (pid > 1 && pid !== process.pid && environHas(pid, entry)) out.push(pid);
  }
  return out;
}

export function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z";
  } catch {
    return false;
  }
}
