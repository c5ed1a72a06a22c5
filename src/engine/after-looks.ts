import { setImmediate } from "node:timers";
import { ProjectSnapshot, statusAhead } from "../cache/content.ts";

/**
 * The project as runs leave it, one `git status` for the runs that end together. A run asks
 * once it has ended; the status starts on the next turn of the event loop, so every run that
 * asked before it starts shares it and each sees the project as it was after it ended. A run
 * that asks once the status has started waits for a later one. Runs of one batch otherwise ask
 * git in turn, each blocking the others' ends.
 */
export class AfterLooks {
  private forming: Promise<ProjectSnapshot> | null = null;

  constructor(private readonly root: string) {}

  look(): Promise<ProjectSnapshot> {
    if (this.forming !== null) return this.forming;
    const look = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      this.forming = null;
      const ahead = statusAhead(this.root);
      const state = ahead === null ? null : await ahead.state;
      // Outside git, or git failed: a snapshot that asks again as it needs.
      return state === null
        ? new ProjectSnapshot(this.root)
        : ProjectSnapshot.fromStatus(this.root, state);
    });
    this.forming = look;
    return look;
  }
}
