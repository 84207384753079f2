import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, postForm } from "../helpers/auth";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Issue 44, item 1 (docs/decisions/017-groups-and-import.md "Who a group admin may add"): no action of a
 * group admin widens whom they manage. The probe's reproduction, kept: a group admin attaches an
 * organization admin and a learner they do not manage, through /api and through the group screen's
 * add-by-e-mail, then reads their record. Before the fix every step succeeded and the record came back;
 * now each is refused with the same translated answer (also for an address or id nobody has), nothing
 * changes, and what organization admins and group admins did change is in the audit, newest first.
 * Nordlys (organization 2) speaks Danish.
 */
const ORG = "nordlys.localhost";
const NOT_MANAGED = "Du kan kun tilføje personer, der allerede er med i en af de grupper, du administrerer.";
let server: InProcessServer;
let admin: string; // the organization admin's API token
let lead: string; // the group admin's API token
let leadCookie: string;
let adminCookie: string;
const id: Record<string, number> = {};

const call = (method: string, path: string, body: unknown, token: string) => api(server, ORG, method, path, { token, body });
const page = (path: string, cookie: string) => request(server.port, ORG, path, { headers: { Cookie: cookie } });
const sql = (text: string, ...params: unknown[]) => execTenant(server, 2, text, ...params);

beforeAll(async () => {
  server = await startInProcess();
  sql(
    "insert into users (email, first_name, role) values ('lead@reach.test', 'Lea', 'learner'), ('member@reach.test', 'Mads', 'learner'), ('stranger@reach.test', 'Sofie', 'learner')",
  );
  sql("insert into groups (name) values ('Team Øst'), ('Team Vest')");
  for (const [name, groupId] of [
    ["lead", "Team Øst"],
    ["lead", "Team Vest"],
  ])
    sql(
      "insert into group_members (group_id, user_id, is_admin) select g.id, u.id, 1 from groups g, users u where g.name = ? and u.email = ?",
      groupId,
      `${name}@reach.test`,
    );
  sql(
    "insert into group_members (group_id, user_id, is_admin) select g.id, u.id, 0 from groups g, users u where g.name = 'Team Øst' and u.email = 'member@reach.test'",
  );
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  lead = insertSession(server, { organizationId: 2 }, { email: "lead@reach.test", kind: "api" });
  leadCookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "lead@reach.test", kind: "web" }));
  adminCookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
  const find = async (q: string) =>
    (await call("GET", `users/search?q=${encodeURIComponent(q)}`, undefined, admin)).json().payload.data[0].id;
  id.admin = await find("admin@nordlys.test");
  id.member = await find("member@reach.test");
  id.stranger = await find("stranger@reach.test");
  const groups = (await call("GET", "groups?per_page=100", undefined, admin)).json().payload.data as { id: number; name: string }[];
  id.east = groups.find((g) => g.name === "Team Øst")!.id;
  id.west = groups.find((g) => g.name === "Team Vest")!.id;
});
afterAll(() => server?.stop());

async function memberCount(groupId: number) {
  return (await call("GET", `groups/${groupId}`, undefined, admin)).json().payload.member_count as number;
}

describe("a group admin adds only people they already manage", () => {
  it("is refused, through /api, an organization admin, a learner outside their groups and an id nobody has, alike", async () => {
    const before = await memberCount(id.east);
    const answers = [];
    for (const userIds of [[id.admin], [id.stranger], [999_999], [id.member, id.stranger]]) {
      const res = await call("POST", `groups/${id.east}/attach`, { user_ids: userIds }, lead);
      expect(res.status, res.body).toBe(403);
      answers.push(res.json().payload);
    }
    // The same answer whether the person exists or not: the call tells nobody who has an account here.
    for (const payload of answers) expect(payload).toEqual(answers[0]);
    expect(answers[0]).toEqual({
      message: expect.stringContaining(NOT_MANAGED),
      code: "not_managed",
      fields: { user_ids: [answers[0].message] },
    });
    expect(await memberCount(id.east)).toBe(before);
    // And their record stays out of reach.
    expect((await call("GET", `users/${id.admin}`, undefined, lead)).status).toBe(404);
    expect((await call("GET", `users/${id.stranger}`, undefined, lead)).status).toBe(404);
  });

  it("is refused on the group screen's add-by-e-mail, with the same translated message for an unknown address", async () => {
    const before = await memberCount(id.east);
    for (const email of ["admin@nordlys.test", "stranger@reach.test", "STRANGER@reach.test", "nobody@reach.test"]) {
      const res = await postForm(server, ORG, `/groups/${id.east}`, { intent: "add-member", email }, leadCookie);
      expect(res.status, email).toBe(400);
      expect(res.body, email).toContain(NOT_MANAGED);
      expect(res.body).not.toContain("Ingen i denne organisation har den e-mailadresse");
    }
    expect(await memberCount(id.east)).toBe(before);
    const screen = await page(`/groups/${id.east}`, leadCookie);
    expect(screen.body).not.toContain("stranger@reach.test");
    expect(screen.body).not.toContain("admin@nordlys.test");
    const people = (await call("GET", "users?per_page=100", undefined, lead)).json().payload.data.map((u: { email: string }) => u.email);
    expect(people.sort()).toEqual(["lead@reach.test", "member@reach.test"]);
    // A malformed address is a form error, not a refusal or a 500.
    const bad = await postForm(server, ORG, `/groups/${id.east}`, { intent: "add-member", email: "not an address" }, leadCookie);
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("Indtast en gyldig e-mailadresse");
  });

  it("may move someone they already manage into another of their groups, by /api and by e-mail", async () => {
    const res = await call("POST", `groups/${id.west}/attach`, { user_ids: [id.member] }, lead);
    expect(res.status, res.body).toBe(200);
    expect(res.json().payload.attached).toEqual({ users: 1, admins: 0, courses: 0 });
    const removed = await postForm(server, ORG, `/groups/${id.west}`, { intent: "remove-member", userId: String(id.member) }, leadCookie);
    expect(removed.status).toBe(302);
    const again = await postForm(server, ORG, `/groups/${id.west}`, { intent: "add-member", email: "member@reach.test" }, leadCookie);
    expect(again.status, again.body).toBe(302);
    expect(await memberCount(id.west)).toBe(2);
  });

  it("never adds an organization admin, even one who is already in a group they administer", async () => {
    const added = await postForm(
      server,
      ORG,
      `/dashboard/organizations/2/groups/${id.east}`,
      { intent: "add-member", email: "admin@nordlys.test" },
      adminCookie,
    );
    expect(added.status, added.body).toBe(302);
    const res = await call("POST", `groups/${id.west}/attach`, { user_ids: [id.admin] }, lead);
    expect(res.status).toBe(403);
    expect(res.json().payload.code).toBe("not_managed");
  });

  it("leaves organization admins free to add anyone, and their unknown ids are skipped as before", async () => {
    const res = await call("POST", `groups/${id.east}/attach`, { user_ids: [id.stranger, 999_999] }, admin);
    expect(res.status, res.body).toBe(200);
    expect(res.json().payload.attached.users).toBe(1);
    const unknown = await postForm(
      server,
      ORG,
      `/dashboard/organizations/2/groups/${id.east}`,
      { intent: "add-member", email: "nobody@reach.test" },
      adminCookie,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body).toContain("Ingen i denne organisation har den e-mailadresse");
    // Now the group admin manages the stranger, because an organization admin said so.
    expect((await call("GET", `users/${id.stranger}`, undefined, lead)).status).toBe(200);
    const out = await postForm(server, ORG, `/groups/${id.east}`, { intent: "remove-member", userId: String(id.stranger) }, leadCookie);
    expect(out.status).toBe(302);
  });
});

describe("the audit of what admins did", () => {
  const expected = () => [
    ["member_removed", "lead@reach.test", "group_admin", "page", "stranger@reach.test", "Team Øst"],
    ["member_added", "admin@nordlys.test", "admin", "api", "stranger@reach.test", "Team Øst"],
    ["member_added", "admin@nordlys.test", "admin", "page", "admin@nordlys.test", "Team Øst"],
    ["member_added", "lead@reach.test", "group_admin", "page", "member@reach.test", "Team Vest"],
    ["member_removed", "lead@reach.test", "group_admin", "page", "member@reach.test", "Team Vest"],
    ["member_added", "lead@reach.test", "group_admin", "api", "member@reach.test", "Team Vest"],
  ];

  it("lists every membership change, newest first, for organization admins through /api; refused attempts left nothing", async () => {
    const res = await call("GET", "audit?per_page=6", undefined, admin);
    expect(res.status, res.body).toBe(200);
    const { data, meta } = res.json().payload;
    const rows = data.map(
      (e: { action: string; actor: { email: string; role: string }; via: string; person: { email: string }; group: { name: string } }) => [
        e.action,
        e.actor.email,
        e.actor.role,
        e.via,
        e.person.email,
        e.group.name,
      ],
    );
    expect(rows).toEqual(expected());
    expect(data[0].person.id).toBe(id.stranger);
    expect(data[0].group.id).toBe(id.east);
    expect(meta.total).toBeGreaterThan(6); // the demo's own entries come after (older)
    const second = (await call("GET", "audit?per_page=6&page=2", undefined, admin)).json().payload.data;
    expect(second.every((e: { at: string }) => e.at <= data[5].at)).toBe(true);
    expect((await call("GET", "audit", undefined, lead)).status).toBe(403);
    const learner = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
    expect((await call("GET", "audit", undefined, learner)).status).toBe(403);
  });

  it("shows them on the dashboard's people screen, in the organization's language, without JavaScript, a page at a time", async () => {
    const res = await page("/dashboard/users/audit", adminCookie);
    expect(res.status).toBe(200);
    expect(res.body).toContain("Hvad administratorer har gjort");
    const rows = [...res.body.matchAll(/<tr data-action="([a-z_]+)" data-actor="([^"]*)" data-person="([^"]*)"/g)].slice(0, 6);
    expect(rows.map((r) => [r[1], r[2], r[3]])).toEqual(expected().map((e) => [e[0], e[1], e[4]]));
    expect(res.body).toContain("Fjernet fra gruppen");
    expect(res.body).toContain("Gruppeadministrator");
    expect(res.body).toMatch(/<a rel="next"[^>]*href="\/dashboard\/users\/audit\?page=2"/);
    const older = await page("/dashboard/users/audit?page=2", adminCookie);
    expect(older.status).toBe(200);
    expect(older.body).not.toContain('data-person="stranger@reach.test"');
    expect((await page("/dashboard/users/audit", leadCookie)).status).toBe(403);
    const users = await page("/dashboard/users", adminCookie);
    expect(users.body).toContain('href="/dashboard/users/audit"');
  });
});
