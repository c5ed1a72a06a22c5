import { readdirSync, readFileSync } from "node:fs";

/**
 * The processes a process started, where /proc says (Linux, CONFIG_PROC_CHILDREN):
 * `/proc/<pid>/task/<tid>/children` of each of its threads. Empty where it does not.
 */
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

/** Every process below `roots` in the process tree (not the roots themselves). */
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

/** The process's environment as /proc shows it, null where it cannot be read. */
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

/** Does the process's environment hold `entry` (`NAME=value`)? False where it cannot be read. */
export function environHas(pid: number, entry: string): boolean {
  const env = environOf(pid);
  return env !== null && holds(env, entry);
}

/** Looks at an empty environment before taking it for one, a millisecond apart. */
const EXEC_LOOKS = 200;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * {@link environHas} for a process this one must tell apart (one it adopted): while a
 * process is inside execve, between dropping its old program and laying out the new one's
 * stack, /proc shows it an empty environment, so a run's process caught there would pass
 * for a stranger and escape the run's end. An empty environment is looked at again until
 * it shows one; a process whose environment really is empty costs a fifth of a second.
 */
export function environHasSettled(pid: number, entry: string): boolean {
  for (let look = 1; ; look++) {
    const env = environOf(pid);
    if (env === null) return false;
    if (env !== "" || look >= EXEC_LOOKS) return holds(env, entry);
    Atomics.wait(pause, 0, 0, 1);
  }
}

/** Every process on the system whose environment holds `entry`: a slow scan, for rare paths. */
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

/** Is the process a zombie (ended, its status not collected)? */
export function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z";
  } catch {
    return false;
  }
}
