import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";

let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcess();
});
afterAll(() => server?.stop());

describe("GET /api/resolve", () => {
  it("gives an organization's public data in the envelope", async () => {
    const res = await request(server.port, "localhost", "/api/resolve?domain=acme.localhost");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    const body = res.json();
    expect(body).toEqual({
      payload: expect.objectContaining({ id: 1, name: "Acme Academy", language: "en", theme: "light", urlPrefix: "acme" }),
      status: 200,
    });
    expect(body.payload).toHaveProperty("logo");
    expect(body.payload).toHaveProperty("customDomain");
  });

  it("resolves a host with a port, and Nordlys with its own language and dark theme", async () => {
    const res = await request(server.port, "localhost", "/api/resolve?domain=nordlys.localhost:3000");
    expect(res.json().payload).toMatchObject({ id: 2, name: "Nordlys Akademi", language: "da", theme: "dark" });
  });

  it("answers an unknown domain with a 404 envelope", async () => {
    const res = await request(server.port, "localhost", "/api/resolve?domain=unknown.localhost");
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({
      error: true,
      payload: { message: "The requested resource was not found.", code: "not_found" },
      status: 404,
    });
  });

  it("answers a missing domain with 422 and a message for the field", async () => {
    const res = await request(server.port, "localhost", "/api/resolve");
    expect(res.status).toBe(422);
    expect(res.json()).toEqual({
      error: true,
      payload: {
        message: "Some of the data sent is not valid.",
        code: "invalid",
        fields: { domain: ["This field is required."] },
      },
      status: 422,
    });
  });

  it("translates errors into the caller's language", async () => {
    const res = await request(server.port, "localhost", "/api/resolve", { headers: { "Accept-Language": "pl" } });
    expect(res.json().payload.fields.domain).toEqual(["To pole jest wymagane."]);
  });
});

describe("unknown /api paths", () => {
  it.each(["GET", "POST", "PUT", "DELETE"])("answer %s with a 404 envelope, never HTML", async (method) => {
    const res = await request(server.port, "acme.localhost", "/api/no-such-thing", { method });
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({ error: true, status: 404, payload: { code: "not_found" } });
  });
});
