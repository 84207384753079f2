import { afterAll, beforeAll, expect, it } from "vitest";
import { api, loginApi } from "../helpers/auth";
import { request } from "../helpers/http";
import { startServer, type RunningServer } from "../helpers/server";

/** The pino request lines (docs/decisions/023-openapi-and-logs.md): who and what, never a secret. */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ env: { LOG_REQUESTS: "true" } });
});
afterAll(() => server?.stop());

it("logs one JSON line per request with request id, organization and user, and no token, password or code", async () => {
  const { token } = await loginApi(server, "nordlys.localhost", "learner@nordlys.test");
  const me = await api(server, "nordlys.localhost", "GET", "auth/user?code=SECRETCODE123", { token });
  expect(me.status).toBe(200);
  await request(server.port, "nordlys.localhost", "/healthz");
  await new Promise((r) => setTimeout(r, 500));
  const lines = server
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const line = lines.find((l) => l.msg === "request" && l.path === "/api/auth/user");
  expect(line).toMatchObject({
    level: "info",
    org: 2,
    user: me.json().payload.id,
    method: "GET",
    status: 200,
    id: me.headers["x-request-id"],
  });
  expect(typeof line!.ms).toBe("number");
  expect(lines.some((l) => l.msg === "request" && l.path === "/api/auth/login")).toBe(true);
  expect(lines.some((l) => String(l.path).startsWith("/healthz"))).toBe(false);
  expect(server.output()).not.toContain(token);
  expect(server.output()).not.toContain("SECRETCODE123");
  expect(server.output()).not.toContain("demo1234");
});
