/**
 * Run an agent CLI where no packet can leave the machine: a new network namespace
 * (`unshare -rn`: a user namespace too, so no privilege is needed) holds only a loopback.
 * The fake model listens outside it, so a relay inside listens on the same 127.0.0.1 port
 * and carries each connection through a Unix socket (files cross namespaces) to the fake.
 * Where user namespaces are off, the CLI runs as it is (the fake's proxy still records any
 * escape).
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { join } from "node:path";
import { tempDir } from "../helpers/tmp.ts";

let available: boolean | undefined;

/** True when `unshare -rn` can make a namespace with a working loopback here. */
export function netnsAvailable(): boolean {
  available ??=
    process.platform === "linux" &&
    process.env.CPILOT_TEST_NO_NETNS !== "1" &&
    spawnSync("unshare", ["-rn", "ip", "link", "set", "lo", "up"], { stdio: "ignore" }).status ===
      0;
  return available;
}

export interface Isolation {
  /** The command line that runs `argv` inside the namespace. */
  readonly argv: string[];
  close(): void;
}

/** Wrap `argv` so it runs in a fresh network namespace that reaches only 127.0.0.1:`port`. */
export async function isolate(argv: readonly string[], port: number): Promise<Isolation | null> {
  if (!netnsAvailable()) return null;
  const dir = tempDir("cpilot-netns-");
  const socket = join(dir, "fake.sock");
  const bridge: Server = createServer((from) => {
    const to = connect(port, "127.0.0.1");
    from.pipe(to).pipe(from);
    from.on("error", () => to.destroy());
    to.on("error", () => from.destroy());
  });
  await new Promise<void>((resolve) => bridge.listen(socket, resolve));
  const relay = join(import.meta.dir, "_netns-relay.mjs");
  return {
    argv: [
      "unshare",
      "-rn",
      "sh",
      "-c",
      'ip link set lo up && exec "$@"',
      "sh",
      process.execPath,
      relay,
      String(port),
      socket,
      ...argv,
    ],
    close() {
      bridge.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
