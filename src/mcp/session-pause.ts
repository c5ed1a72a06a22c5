/**
 * What the agent paused with callback_toggle, for this MCP session only: kept in the
 * server's memory, applied to the edits made through its tools, gone when the session
 * ends. The person's commits, CI and the agent's hooks never read it, so an agent cannot
 * switch off the person's checks.
 */
export class SessionPause {
  private all = false;
  private readonly names = new Set<string>();

  /** Resuming all clears one-by-one pauses too. */
  setAll(paused: boolean): void {
    this.all = paused;
    if (!paused) this.names.clear();
  }

  set(name: string, paused: boolean): void {
    if (paused) this.names.add(name);
    else this.names.delete(name);
  }

  has(name: string): boolean {
    return this.all || this.names.has(name);
  }

  /** The engine's `skip`. */
  among(names: readonly string[]): string[] {
    return names.filter((name) => this.has(name));
  }

  get allPaused(): boolean {
    return this.all;
  }
}
