import { readdirSync, readFileSync } from "node:fs";

/**
 * Does any process of group `pgid` still run, zombies aside? Null where /proc does not say.
 * Where init reaps slowly (a container, a VM), `kill(-pgid, 0)` keeps saying "alive" for
 * zombies, and every stopped run would wait out the whole grace period.
 */
export function groupHasLiveMember(pgid: number): boolean | null {
  let pids: string[];
  try {
    pids = readdirSync("/proc");
  } catch {
    return null;
  }
  let sawAny = false;
  for (const pid of pids) {
    if (pid.charCodeAt(0) > 57) continue; // not a process folder (self, sys, ...)
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    sawAny = true;
    // after the command name (which may hold anything): state, ppid, pgrp, ...
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ", 3);
    if (Number(fields[2]) === pgid && fields[0] !== "Z") return true;
  }
  return sawAny ? false : null;
}
