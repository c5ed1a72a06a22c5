import { KILL_GRACE_MS } from "../platform/spawn-group.ts";
import { startProcess } from "../platform/start-process.ts";

// $1 owner pid, $2 run's pgid, $3 record file, $4 stop marker, $5 grace in tenths of a
// second, $6 run id: what left the group still has CP_RUN_ID=$6 and is stopped with it.
const SCRIPT = `o=$1 g=$2 r=$6
while kill -0 "$o" 2>/dev/null && kill -0 -- "-$g" 2>/dev/null; do sleep 0.5; done
kill -0 -- "-$g" 2>/dev/null || exit 0
printf 'its session ended' > "$4"
left() { grep -lzx "CP_RUN_ID=$r" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3; }
kill -TERM -- "-$g" $(left) 2>/dev/null
i=0
while [ "$i" -lt "$5" ] && kill -0 -- "-$g" 2>/dev/null; do sleep 0.1; i=$((i+1)); done
kill -KILL -- "-$g" $(left) 2>/dev/null
rm -f "$3"`;

/**
 * Guard a non-blocking run against outliving its owner: a detached bash loop that stops the
 * run's group (SIGTERM, then SIGKILL) when the owner goes, and exits when the run ends. It
 * holds no pipes, so it never keeps anyone waiting.
 */
export function spawnWatchdog(options: {
  ownerPid: number;
  pgid: number;
  recordPath: string;
  stopMarkerPath: string;
  runId: string;
  graceMs?: number;
}): void {
  const tenths = Math.max(1, Math.round((options.graceMs ?? KILL_GRACE_MS) / 100));
  // No bash: the run is still stopped by its host, `cpilot stop` and stopSessionRuns.
  startProcess(
    "bash",
    [
      "-c",
      SCRIPT,
      "cpilot-watchdog",
      String(options.ownerPid),
      String(options.pgid),
      options.recordPath,
      options.stopMarkerPath,
      String(tenths),
      options.runId,
    ],
    { detached: true },
  ).unref();
}
