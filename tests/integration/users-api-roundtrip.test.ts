import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { execTenant, insertSession } from "../helpers/sessions";

/**
 * `GET /api/users/{id}` and `PUT /api/users/{id}` speak the same field names (issue 30, defect 8): a reply
 * sent back unchanged changes nothing, and a PUT of some fields leaves the others alone. Nordlys is
 * organization 2; its demo learner is learner@nordlys.test (Lars Larsen).
 */
const ORG = "nordlys.localhost";
let server: InProcessServer;
let admin: string;

beforeAll(async () => {
  server = await startInProcess();
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
});
afterAll(() => server?.stop());

const call = (method: string, path: string, body?: unknown, token = admin) => api(server, ORG, method, path, { token, body });

/** A person's id, with a phone and a language set beside the server (so the round trip has something to lose). */
async function personWith(email: string, phone: string | null, language: string | null) {
  execTenant(server, 2, "update users set phone = ?, language = ? where email = ?", phone, language, email);
  const found = (await call("GET", `users/search?q=${encodeURIComponent(email)}`)).json().payload.data;
  expect(found).toHaveLength(1);
  return found[0].id as number;
}

async function read(id: number) {
  const res = await call("GET", `users/${id}`);
  expect(res.status, res.body).toBe(200);
  return res.json().payload;
}

describe("PUT /api/users/{id} takes what GET gives", () => {
  it("sends a GET reply back unchanged: 200 and nothing changes (names, language, phone, role)", async () => {
    const id = await personWith("learner@nordlys.test", "+45 12 34 56 78", "sv");
    const before = await read(id);
    expect(before).toMatchObject({ first_name: "Lars", last_name: "Larsen", phone: "+45 12 34 56 78", language: "sv", type: "learner" });
    const put = await call("PUT", `users/${id}`, before);
    expect(put.status, put.body).toBe(200);
    expect(put.json().payload).toEqual(before);
    expect(await read(id)).toEqual(before);
  });

  it("takes `phone: null` and `language: null` from a reply sent back (a person without them)", async () => {
    const id = await personWith("learner@nordlys.test", null, null);
    const before = await read(id);
    expect(before).toMatchObject({ phone: null, language: null });
    const put = await call("PUT", `users/${id}`, before);
    expect(put.status, put.body).toBe(200);
    expect(await read(id)).toEqual(before);
  });

  it("changes only the names when only the names are sent", async () => {
    const id = await personWith("learner@nordlys.test", "+45 87 65 43 21", "no");
    const before = await read(id);
    const put = await call("PUT", `users/${id}`, { first_name: "A", last_name: "B" });
    expect(put.status, put.body).toBe(200);
    expect(await read(id)).toEqual({ ...before, first_name: "A", last_name: "B" });
    // The probe's own reproduction: the names it sends are the names it gets.
    const full = await call("PUT", `users/${id}`, { ...before, first_name: "Lars", last_name: "Larsen" });
    expect(full.status, full.body).toBe(200);
    expect(await read(id)).toEqual(before);
  });

  it("clears the phone with `phone: null` and leaves everything else", async () => {
    const id = await personWith("learner@nordlys.test", "+45 11 11 11 11", "da");
    const before = await read(id);
    const put = await call("PUT", `users/${id}`, { phone: null });
    expect(put.status, put.body).toBe(200);
    expect(await read(id)).toEqual({ ...before, phone: null });
  });

  it("ignores the reply's read-only fields instead of refusing them or writing them", async () => {
    const id = await personWith("learner@nordlys.test", null, "da");
    const before = await read(id);
    const put = await call("PUT", `users/${id}`, {
      id: 999_999,
      created_at: "2000-01-01T00:00:00.000Z",
      disabled: true,
      managed_externally: true,
      last_name: "Lund",
    });
    expect(put.status, put.body).toBe(200);
    expect(await read(id)).toEqual({ ...before, last_name: "Lund" });
    await call("PUT", `users/${id}`, { last_name: before.last_name });
  });

  it("still reads the older names, and refuses the same field sent twice with two values", async () => {
    const id = await personWith("learner@nordlys.test", null, null);
    const before = await read(id);
    const older = await call("PUT", `users/${id}`, { firstName: "Laurits" });
    expect(older.status, older.body).toBe(200);
    expect(await read(id)).toEqual({ ...before, first_name: "Laurits" });
    const twice = await call("PUT", `users/${id}`, { first_name: "One", firstName: "Other" });
    expect(twice.status).toBe(422);
    expect(twice.json().payload.fields.firstName).toHaveLength(1);
    expect((await read(id)).first_name).toBe("Laurits");
    await call("PUT", `users/${id}`, { first_name: before.first_name });
  });

  it("adds a person from the reply's field names (POST /api/users)", async () => {
    const created = await call("POST", "users", {
      email: "grace@nordlys.test",
      first_name: "Grace",
      last_name: "Hopper",
      phone: null,
      language: "en",
      type: "learner",
    });
    expect(created.status, created.body).toBe(201);
    expect(created.json().payload).toMatchObject({
      email: "grace@nordlys.test",
      first_name: "Grace",
      last_name: "Hopper",
      phone: null,
      language: "en",
      type: "learner",
    });
  });
});

describe("roles through PUT and POST /api/users stay within the caller's reach", () => {
  it("lets a token limited to write:user add learners but not make admins", async () => {
    const made = await call("POST", "api/tokens", { name: "provisioning", capabilities: ["write:user", "read:user"] });
    expect(made.status, made.body).toBe(201);
    const token = made.json().payload.token as string;
    const learner = await call("POST", "users", { email: "helper@nordlys.test", first_name: "Hel", type: "learner" }, token);
    expect(learner.status, learner.body).toBe(201);
    const id = learner.json().payload.id;
    const promote = await call("PUT", `users/${id}`, { type: "admin" }, token);
    expect(promote.status).toBe(403);
    expect(promote.json().payload.code).toBe("forbidden");
    const promoteByOlderName = await call("PUT", `users/${id}`, { role: "admin" }, token);
    expect(promoteByOlderName.status).toBe(403);
    const newAdmin = await call("POST", "users", { email: "boss@nordlys.test", type: "admin" }, token);
    expect(newAdmin.status).toBe(403);
    expect((await read(id)).type).toBe("learner");
    expect((await call("GET", "users/search?q=boss@nordlys")).json().payload.data).toEqual([]);
    // Sending the role the person already has back is not a grant.
    const same = await call("PUT", `users/${id}`, { ...(await read(id)), last_name: "Per" }, token);
    expect(same.status, same.body).toBe(200);
    // A full admin still promotes.
    const byAdmin = await call("PUT", `users/${id}`, { type: "admin" });
    expect(byAdmin.status, byAdmin.body).toBe(200);
    expect(byAdmin.json().payload.type).toBe("admin");
  });

  it("keeps an admin from changing its own role, also through a reply sent back", async () => {
    const self = (await call("GET", "users/search?q=admin@nordlys.test")).json().payload.data[0];
    const back = await call("PUT", `users/${self.id}`, self);
    expect(back.status, back.body).toBe(200);
    const demote = await call("PUT", `users/${self.id}`, { ...self, type: "learner" });
    expect(demote.status).toBe(403);
    expect(demote.json().payload.code).toBe("self");
    expect((await read(self.id)).type).toBe("admin");
  });
});
