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

/** Does the process's environment hold `entry` (`NAME=value`)? False where it cannot be read. */
export function environHas(pid: number, entry: string): boolean {
  try {
    const env = readFileSync(`/proc/${pid}/environ`, "latin1");
    return env.startsWith(`${entry}\0`) || env.includes(`\0${entry}\0`);
  } catch {
    return false;
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
