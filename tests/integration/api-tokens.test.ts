import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { execTenant, insertSession } from "../helpers/sessions";

let server: InProcessServer;
let admin: string;
const ORG = "nordlys.localhost";
beforeAll(async () => {
  server = await startInProcess();
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
});
afterAll(() => server?.stop());

async function makeToken(capabilities: string[], by = admin, extra: Record<string, unknown> = {}) {
  const res = await api(server, ORG, "POST", "api/tokens", { token: by, body: { name: "script", capabilities, ...extra } });
  return res;
}

describe("API tokens", () => {
  it("are shown once, listed with their last use and never with the secret", async () => {
    const created = await makeToken(["read:course"]);
    expect(created.status).toBe(201);
    const { token, id, expires_at, capabilities } = created.json().payload;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(capabilities).toEqual(["read:course"]);
    const days = (new Date(expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    await api(server, ORG, "GET", "courses", { token });
    const list = await api(server, ORG, "GET", "api/tokens", { token: admin });
    const listed = list.json().payload.data.find((t: { id: number }) => t.id === id);
    expect(listed.last_used_at).not.toBeNull();
    expect(list.body).not.toContain(token);
  });

  it("with only read:course: lists courses, and every write answers a 403 envelope", async () => {
    const { token } = (await makeToken(["read:course"])).json().payload;
    const list = await api(server, ORG, "GET", "courses", { token });
    expect(list.status).toBe(200);
    expect(list.json().payload.data.length).toBeGreaterThan(0);
    expect((await api(server, ORG, "GET", "courses/1", { token })).status).toBe(200);
    const writes = [
      ["POST", "courses", { title: "Nope" }],
      ["PUT", "courses/1", { title: "Renamed" }],
      ["DELETE", "courses/1", undefined],
      ["POST", "api/tokens", { name: "more", capabilities: ["read:course"] }],
      ["DELETE", "api/tokens/1", undefined],
    ] as const;
    for (const [method, path, body] of writes) {
      const res = await api(server, ORG, method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json()).toMatchObject({ error: true, status: 403, payload: { code: "forbidden" } });
    }
    const reads = [
      ["GET", "users"],
      ["GET", "api/tokens"],
    ] as const;
    for (const [method, path] of reads) expect((await api(server, ORG, method, path, { token })).status, path).toBe(403);
    // Nothing changed.
    const course = (await api(server, ORG, "GET", "courses/1", { token: admin })).json().payload;
    expect(course.title).toBe("Velkommen til Nordlys");
  });

  it("reach only their own organization", async () => {
    const { token } = (await makeToken(["read:course"])).json().payload;
    expect((await api(server, "acme.localhost", "GET", "courses", { token })).status).toBe(401);
    expect((await api(server, "localhost", "GET", "courses", { token })).status).toBe(404);
  });

  it("stop working the moment they are revoked", async () => {
    const { token, id } = (await makeToken(["read:course"])).json().payload;
    expect((await api(server, ORG, "GET", "courses", { token })).status).toBe(200);
    expect((await api(server, ORG, "DELETE", `api/tokens/${id}`, { token: admin })).status).toBe(200);
    expect((await api(server, ORG, "GET", "courses", { token })).status).toBe(401);
  });

  it("cannot be given more than their creator holds", async () => {
    const limited = (await makeToken(["manage:api-token", "read:course"])).json().payload.token;
    const escalate = await makeToken(["write:course"], limited);
    expect(escalate.status).toBe(422);
    expect(escalate.json().payload.fields.capabilities[0]).toContain("write:course");
    const fine = await makeToken(["read:course"], limited);
    expect(fine.status).toBe(201);
  });

  it("refuse unknown capabilities and an expiry past the spec's 30 days", async () => {
    const unknown = await makeToken(["root:everything"]);
    expect(unknown.status).toBe(422);
    const long = await makeToken(["read:course"], admin, { expires_in_days: 31 });
    expect(long.status).toBe(422);
    expect(long.json().payload.fields).toHaveProperty("expires_in_days");
  });

  it("lose what their owner loses: lowering the owner's role takes effect on the next request", async () => {
    execTenant(server, 2, "insert into users (email, first_name, role) values ('deputy@nordlys.test', 'Dina', 'admin')");
    const deputy = insertSession(server, { organizationId: 2 }, { email: "deputy@nordlys.test", kind: "api" });
    const { token } = (await makeToken(["write:course", "read:course"], deputy)).json().payload;
    expect((await api(server, ORG, "POST", "courses", { token, body: {} })).status).toBe(422); // allowed, bad body
    expect((await api(server, ORG, "POST", "courses", { token: deputy, body: {} })).status).toBe(422);
    execTenant(server, 2, "update users set role = 'learner' where email = 'deputy@nordlys.test'");
    expect((await api(server, ORG, "POST", "courses", { token, body: {} })).status).toBe(403);
    expect((await api(server, ORG, "POST", "courses", { token: deputy, body: {} })).status).toBe(403);
    expect((await api(server, ORG, "GET", "courses", { token })).status).toBe(200);
    execTenant(server, 2, "update users set disabled_at = unixepoch() where email = 'deputy@nordlys.test'");
    expect((await api(server, ORG, "GET", "courses", { token })).status).toBe(401);
  });
});

describe("capabilities", () => {
  it("are listed with their groups and what the caller holds", async () => {
    const learner = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
    const list = (await api(server, ORG, "GET", "api/capabilities", { token: learner })).json().payload.data;
    const byId = Object.fromEntries(list.map((c: { id: string; granted: boolean }) => [c.id, c.granted]));
    expect(byId["read:course"]).toBe(true);
    expect(byId["write:course"]).toBe(false);
    expect(byId["manage:api-token"]).toBe(false);
    const groups = (await api(server, ORG, "GET", "api/capabilities/groups", { token: learner, headers: {} })).json().payload.data;
    expect(groups.map((g: { id: string }) => g.id)).toEqual(["learning", "content", "assessment", "people", "insight", "organization"]);
    expect(groups[0].name).toBe("Læring");
  });
});

describe("mass assignment", () => {
  it("ignores fields a body may not set", async () => {
    const res = await api(server, ORG, "POST", "courses", {
      token: admin,
      body: { title: "Ny kursus", id: 4242, created_at: "2000-01-01T00:00:00Z", organization_id: 1, points: 1000, role: "admin" },
    });
    expect(res.status).toBe(201);
    const course = res.json().payload;
    expect(course.id).not.toBe(4242);
    expect(course.created_at.startsWith("2000")).toBe(false);
    expect(course).not.toHaveProperty("organization_id");
    expect(course).not.toHaveProperty("points");
  });

  it("refuses references to rows that do not exist in this organization, changing nothing", async () => {
    const before = (await api(server, ORG, "GET", "courses", { token: admin })).json().payload.meta.total;
    const res = await api(server, ORG, "POST", "courses", { token: admin, body: { title: "Forkert", category_id: 999 } });
    expect(res.status).toBe(422);
    expect(res.json().payload.fields).toHaveProperty("category_id");
    const after = (await api(server, ORG, "GET", "courses", { token: admin })).json().payload.meta.total;
    expect(after).toBe(before);
  });

  it("does not let a learner see unpublished courses by id or search", async () => {
    const learner = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
    const all = (await api(server, ORG, "GET", "courses?per_page=100", { token: admin })).json().payload.data;
    const draft = all.find((c: { published: boolean; title: string }) => !c.published && c.title.includes("kladde"));
    expect(draft).toBeTruthy();
    expect((await api(server, ORG, "GET", `courses/${draft.id}`, { token: learner })).status).toBe(404);
    const found = (await api(server, ORG, "GET", "courses/search?q=kladde", { token: learner })).json().payload.data;
    expect(found).toEqual([]);
    const forAdmin = (await api(server, ORG, "GET", "courses/search?q=kladde", { token: admin })).json().payload.data;
    expect(forAdmin.map((c: { id: number }) => c.id)).toEqual([draft.id]);
  });
});

describe("users through /api", () => {
  it("adds, edits and deletes a user; nobody deletes or demotes themselves", async () => {
    const created = await api(server, ORG, "POST", "users", {
      token: admin,
      body: { email: "api-user@nordlys.test", firstName: "Api", role: "learner" },
    });
    expect(created.status, created.body).toBe(201);
    const id = created.json().payload.id;
    expect(created.json().payload).toMatchObject({ email: "api-user@nordlys.test", type: "learner" });
    const dup = await api(server, ORG, "POST", "users", { token: admin, body: { email: "API-USER@nordlys.test", role: "learner" } });
    expect(dup.status).toBe(422);
    const edited = await api(server, ORG, "PUT", `users/${id}`, {
      token: admin,
      body: { email: "api-user@nordlys.test", firstName: "Api", lastName: "Bruger", role: "none" },
    });
    expect(edited.json().payload).toMatchObject({ last_name: "Bruger", type: null });
    expect((await api(server, ORG, "DELETE", `users/${id}`, { token: admin })).status).toBe(200);
    expect((await api(server, ORG, "GET", `users/${id}`, { token: admin })).status).toBe(404);
    expect((await api(server, ORG, "DELETE", "users/1", { token: admin })).status).toBe(403);
    const demote = await api(server, ORG, "PUT", "users/1", { token: admin, body: { email: "admin@nordlys.test", role: "learner" } });
    expect(demote.status).toBe(403);
  });
});
