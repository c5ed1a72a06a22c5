// Runs inside a fresh network namespace (see netns.ts): listens on 127.0.0.1:<port> there,
// carries each connection to <socket> (a Unix socket, which reaches the fake model outside
// the namespace), and once listening starts the agent command, exiting with its code.
import { spawn } from "node:child_process";
import { connect, createServer } from "node:net";

const [port, socket, ...argv] = process.argv.slice(2);
const server = createServer((inside) => {
  const outside = connect(socket);
  inside.pipe(outside).pipe(inside);
  inside.on("error", () => outside.destroy());
  outside.on("error", () => inside.destroy());
});
server.listen(Number(port), "127.0.0.1", () => {
  const child = spawn(argv[0], argv.slice(1), { stdio: "inherit" });
  child.on("close", (code, signal) => {
    server.close();
    process.exit(code ?? (signal ? 1 : 0));
  });
  for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => child.kill(sig));
});
