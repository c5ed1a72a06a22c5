import { dirname } from "node:path";
import { CpilotError } from "../util/errors.ts";
import { claimStage, type Journal, releaseUnusedStage } from "./journal.ts";

/**
 * The stage folder, held by one `check --staged` from before it looks at the tree until it
 * ends: a second check must never survey a tree the first has set aside, then stage the
 * work the first puts back. While it holds nothing set aside it is let go on the way out.
 */
export class StageHold {
  private held = false;

  /** `dir` null: a dry run, or no git folder; nothing is ever held. */
  constructor(readonly dir: string | null) {}

  /** Throws a CpilotError while another check holds it, or when it cannot be made. */
  hold(top: string, root: string): void {
    const { dir } = this;
    if (dir === null || this.held) return;
    const hold: Omit<Journal, "pid" | "started"> = {
      version: 1,
      top,
      root,
      createdAt: new Date().toISOString(),
      tracked: [],
      untracked: [],
    };
    if (!claim(dir, hold)) {
      throw new CpilotError(
        "Cannot set unstaged changes aside: another `cpilot check --staged` is running in this repository",
        {
          hint: `wait for it to end; if it is gone, \`cpilot check --restore\` puts back what it set aside (kept in ${dir})`,
        },
      );
    }
    this.held = true;
    process.on("exit", this.letGo);
  }

  /** Lets the folder go while it holds nothing set aside; also what runs on the way out. */
  readonly letGo = (): void => {
    if (!this.held || this.dir === null) return;
    this.held = false;
    releaseUnusedStage(this.dir);
  };

  /** Done with it: let go now, with nothing left to do on the way out. */
  release(): void {
    this.letGo();
    process.off("exit", this.letGo);
  }

  /**
   * Setting work aside takes the folder over: from here the put-back releases it, or, should
   * cpilot be killed, the next call finds the journal and puts the work back.
   */
  handOver(): void {
    this.held = false;
    process.off("exit", this.letGo);
  }
}

/** false while another check holds it; a CpilotError when it cannot be made. */
function claim(dir: string, hold: Omit<Journal, "pid" | "started">): boolean {
  try {
    return claimStage(dir, hold, { durable: false });
  } catch (err) {
    throw new CpilotError(
      `Cannot set unstaged changes aside in "${dir}": ${(err as Error).message}`,
      { hint: `make ${dirname(dir)} a folder cpilot can write (or remove it), then commit again` },
    );
  }
}
