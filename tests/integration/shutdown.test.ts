import http from "node:http";
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * Graceful stop (docs/decisions/021-operations.md, 023): on SIGTERM the server stops taking connections,
 * finishes the requests under way, and exits 0.
 */
let server: RunningServer | undefined;
afterAll(() => server?.stop());

function connectRefused(port: number) {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

describe("SIGTERM", () => {
  it("finishes a request in flight, refuses new connections, and exits 0", async () => {
    server = await startServer();
    const { port, process: child } = server;
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

    let refused: boolean | null = null;
    // A sign-in whose body arrives slowly: the request is under way when the signal comes.
    const body = JSON.stringify({ email: "learner@nordlys.test", password: "demo1234" });
    const reply = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          path: "/api/auth/login",
          method: "POST",
          headers: {
            Host: "nordlys.localhost",
            "Content-Type": "application/json",
            "Content-Length": String(Buffer.byteLength(body)),
            Connection: "close",
          },
          setHost: false,
          agent: false,
        },
        (res) => {
          let text = "";
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 10));
      // The first half is on the server before the signal; the rest comes after it.
      setTimeout(() => {
        child.kill("SIGTERM");
        setTimeout(async () => {
          refused = await connectRefused(port);
          req.end(body.slice(10));
        }, 500);
      }, 300);
    });

    const { status, text } = await reply;
    expect(refused, "a new connection after SIGTERM").toBe(true);
    expect(status, text).toBe(200);
    expect(JSON.parse(text).payload.token).toMatch(/\S{20,}/);
    expect(await exited).toBe(0);
    expect(server.output()).toMatch(/"msg":"stopping"/);
    server = undefined;
  });
});
