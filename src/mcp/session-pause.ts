/**
 * What the agent paused with callback_toggle, for this MCP session only: kept in the
 * server's memory, applied to the edits made through its tools, gone when the session
 * ends. The person's commits, CI and the agent's hooks never read it, so an agent cannot
 * switch off the person's checks.
 *
 * A pause belongs to one config: its folder relative to the project root ("" for the
 * project's own), since two packages may each have a callback of the same name.
 */
export class SessionPause {
  private all = false;
  private readonly allIn = new Set<string>();
  private readonly names = new Set<string>();

  /** Without a folder: every config's; resuming all clears one-by-one pauses too. */
  setAll(paused: boolean, folder?: string): void {
    if (folder === undefined) {
      this.all = paused;
      if (!paused) {
        this.allIn.clear();
        this.names.clear();
      }
      return;
    }
    if (paused) {
      this.allIn.add(folder);
      return;
    }
    this.allIn.delete(folder);
    for (const key of this.names) if (key.startsWith(`${folder}\0`)) this.names.delete(key);
  }

  set(name: string, paused: boolean, folder = ""): void {
    if (paused) this.names.add(`${folder}\0${name}`);
    else this.names.delete(`${folder}\0${name}`);
  }

  has(name: string, folder = ""): boolean {
    return this.all || this.allIn.has(folder) || this.names.has(`${folder}\0${name}`);
  }

  /** The engine's `skip` for the config in `folder`. */
  among(names: readonly string[], folder = ""): string[] {
    return names.filter((name) => this.has(name, folder));
  }

  /** Every callback of every config, or of the one in `folder`. */
  allPaused(folder?: string): boolean {
    return this.all || (folder !== undefined && this.allIn.has(folder));
  }
}
