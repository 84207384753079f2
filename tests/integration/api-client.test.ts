import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { paths } from "~/api/client";
import { DEMO_PASSWORD } from "../helpers/auth";
import { checkReply } from "../helpers/contract";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";

/**
 * The typed client (`npm run api:client` → app/api/client.d.ts, with openapi-fetch) against the real
 * server: a call the description does not have, or a body or reply of another shape, fails `npm run
 * typecheck`; every reply is also checked against its contract at run time.
 */
let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcess();
});
afterAll(() => server?.stop());

/** openapi-fetch's fetch, through http.request with the organization's Host header (docs/decisions/001-stack-and-layout.md, trap 9). */
function clientFor(host: string, token?: string) {
  const fetchVia = async (input: Request) => {
    const url = new URL(input.url);
    const headers = Object.fromEntries(input.headers.entries());
    const body = input.method === "GET" ? undefined : await input.text();
    const res = await request(server.port, host, `${url.pathname}${url.search}`, {
      method: input.method,
      headers,
      body: body || undefined,
    });
    checkReply(input.method, `${url.pathname}${url.search}`, res);
    const replyHeaders = new Headers();
    for (const [name, value] of Object.entries(res.headers)) if (typeof value === "string") replyHeaders.set(name, value);
    return new Response(new Uint8Array(res.raw), { status: res.status, headers: replyHeaders });
  };
  return createClient<paths>({
    baseUrl: `http://${host}`,
    fetch: fetchVia,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
}

async function signIn(email: string) {
  const { data, error } = await clientFor("nordlys.localhost").POST("/api/auth/login", { body: { email, password: DEMO_PASSWORD } });
  expect(error).toBeUndefined();
  return data!.payload.token;
}

describe("the typed /api client", () => {
  it("signs in and reads who it is", async () => {
    const token = await signIn("learner@nordlys.test");
    const api = clientFor("nordlys.localhost", token);
    const { data, error, response } = await api.GET("/api/auth/user");
    expect(
      error,
      `${response.status} ${JSON.stringify(error)} ${JSON.stringify([...(response.headers as Headers).keys()])}`,
    ).toBeUndefined();
    expect(data?.payload.email).toBe("learner@nordlys.test");
    expect(data?.payload.capabilities).toContain("learn:course");
  });

  it("gets the error envelope with its code for a wrong password", async () => {
    const { data, error, response } = await clientFor("nordlys.localhost").POST("/api/auth/login", {
      body: { email: "learner@nordlys.test", password: "not the password" },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ error: true, payload: { code: "invalid_password" }, status: 401 });
  });

  it("lists courses with a typed query, bookmarks one and reads its progress by path parameter", async () => {
    const api = clientFor("nordlys.localhost", await signIn("learner@nordlys.test"));
    const courses = await api.GET("/api/courses", { params: { query: { page: 1, per_page: 5 } } });
    const first = courses.data!.payload.data[0];
    expect(first.published).toBe(true);
    expect(courses.data!.payload.meta.per_page).toBe(5);

    const marked = await api.POST("/api/bookmarks", { body: { course_id: first.id } });
    expect(marked.response.status).toBe(201);
    expect(marked.data?.payload).toEqual({ course_id: first.id, bookmarked: true });
    const listed = await api.GET("/api/bookmarks");
    expect(listed.data!.payload.data.map((b) => b.course_id)).toContain(first.id);
    const removed = await api.DELETE("/api/bookmarks/{id}", { params: { path: { id: String(first.id) } } });
    expect(removed.data?.payload.bookmarked).toBe(false);

    const progress = await api.GET("/api/lesson-progresses/course/{id}", { params: { path: { id: String(first.id) } } });
    expect(progress.data?.payload.course_id).toBe(first.id);
    expect(progress.data!.payload.percent).toBeGreaterThanOrEqual(0);
  });

  it("lets an admin create, change and delete a category", async () => {
    const api = clientFor("nordlys.localhost", await signIn("admin@nordlys.test"));
    const created = await api.POST("/api/courses/categories", { body: { name: "Typed client" } });
    expect(created.response.status).toBe(201);
    const id = String(created.data!.payload.id);
    const changed = await api.PUT("/api/courses/categories/{id}", { params: { path: { id } }, body: { name: "Typed client 2" } });
    expect(changed.data?.payload.name).toBe("Typed client 2");
    const gone = await api.DELETE("/api/courses/categories/{id}", { params: { path: { id } } });
    expect(gone.data?.payload).toEqual({ id: Number(id), deleted: true });
  });

  it("reads the description and the reference page", async () => {
    const json = await request(server.port, "nordlys.localhost", "/api/openapi.json");
    expect(json.status).toBe(200);
    const document = json.json();
    expect(document.openapi).toBe("3.1.0");
    expect(document.paths["/api/courses/{id}"].get["x-capability"]).toBe("read:course");
    const page = await request(server.port, "localhost", "/api/docs");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain("Lectern API");
    expect(page.body).toContain("/api/auth/login");
    expect(page.body).toContain("invalid_password");
    expect(page.body).not.toContain("<script");
  });
});
