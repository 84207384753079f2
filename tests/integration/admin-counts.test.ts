import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, postForm } from "../helpers/auth";
import { request } from "../helpers/http";
import { startServer, type RunningServer } from "../helpers/server";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Issue 31: the super-admin's overview (/admin) and user list (/admin/users) read the organizations'
 * people and counts from the platform database, kept current as they change in the organizations
 * (app/models/tenant-summary.server.ts), instead of opening every organization's database per request.
 * Which databases the server holds open is read from its file descriptors.
 */
let server: RunningServer;
let superCookie: string;
const ORGANIZATIONS = [1, 2]; // the demo's Acme Academy and Nordlys Akademi

beforeAll(async () => {
  server = await startServer();
  superCookie = await cookieFor(insertSession(server, "platform", { email: "super@lectern.test", kind: "web" }));
});
afterAll(() => server?.stop());

const page = (host: string, p: string, cookie: string) => request(server.port, host, p, { headers: { Cookie: cookie } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The figures the overview shows, as a person reads them. */
async function overview() {
  const res = await page("localhost", "/admin", superCookie);
  expect(res.status).toBe(200);
  const figure = (key: string) => Number(res.body.match(new RegExp(`data-testid="count-${key}"><dt>[^<]*</dt><dd>(\\d+)</dd>`))![1]);
  return { organizations: figure("organizations"), users: figure("users"), courses: figure("courses"), body: res.body };
}

/** What the organizations' own databases hold, counted in them directly. */
function truth() {
  let users = 0;
  let courses = 0;
  for (const id of ORGANIZATIONS) {
    const db = new Database(path.join(server.dataDir, `org-${id}`, "db.sqlite"), { readonly: true });
    try {
      users += (db.prepare("select count(*) as n from users").get() as { n: number }).n;
      courses += (db.prepare("select count(*) as n from courses").get() as { n: number }).n;
    } finally {
      db.close();
    }
  }
  return { organizations: ORGANIZATIONS.length, users, courses };
}

/** The organizations' database files the server process has open. */
function openOrganizationDatabases() {
  const dir = `/proc/${server.process.pid}/fd`;
  return fs
    .readdirSync(dir)
    .flatMap((fd) => {
      try {
        return [fs.readlinkSync(path.join(dir, fd))];
      } catch {
        return []; // closed meanwhile
      }
    })
    .filter((file) => /\/org-\d+\/db\.sqlite$/.test(file));
}

describe("the super-admin's overview and user list", () => {
  it("are read without opening any organization's database", async () => {
    // At start the server looks at every organization once (jobs to resume, summaries to gather,
    // recertification's sweep) and closes each again; nobody has used one since. On a busy machine that
    // start-up work has taken more than 5 s: up to 20 s are waited for. It looks at one organization at a
    // time, each on a turn of its own, so one look at the files may fall between two organizations: the
    // start-up is over once none has been open for a whole second.
    let quietSince = Date.now();
    for (let i = 0; i < 400 && Date.now() - quietSince < 1000; i++) {
      await sleep(50);
      if (openOrganizationDatabases().length > 0) quietSince = Date.now();
    }
    expect(openOrganizationDatabases()).toEqual([]);
    const { users, courses } = await overview();
    expect({ users, courses }).toEqual({ users: truth().users, courses: truth().courses });
    const list = await page("localhost", "/admin/users?q=learner", superCookie);
    expect(list.body).toContain("learner@acme.test");
    expect(list.body).toContain("learner@nordlys.test");
    expect((await page("localhost", "/admin/users", superCookie)).status).toBe(200);
    expect(openOrganizationDatabases()).toEqual([]);
  });

  it("count a user and a course added in an organization, and its list shows the user, as they change", async () => {
    const before = await overview();
    expect({ organizations: before.organizations, users: before.users, courses: before.courses }).toEqual(truth());

    // Acme's admin adds a person on the dashboard and a course through /api.
    const admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
    const added = await postForm(
      server,
      "acme.localhost",
      "/dashboard/users/create",
      { firstName: "Quinn", lastName: "Counted", email: "quinn@acme.test", role: "learner", language: "" },
      admin,
    );
    expect(added.status).toBe(302);
    const token = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
    const course = await api(server, "acme.localhost", "POST", "courses", { token, body: { title: "Counted course" } });
    expect(course.status).toBe(201);

    const after = await overview();
    expect(after.users).toBe(before.users + 1);
    expect(after.courses).toBe(before.courses + 1);
    expect({ organizations: after.organizations, users: after.users, courses: after.courses }).toEqual(truth());

    const found = await page("localhost", "/admin/users?q=quinn", superCookie);
    const row = found.body.match(
      /<tr><td><a [^>]*href="\/admin\/users\/1-(\d+)">Quinn Counted<\/a><\/td><td>quinn@acme.test<\/td><td>[^<]+<\/td><td>Acme Academy<\/td><\/tr>/,
    );
    expect(row).not.toBeNull();
    const userId = Number(row![1]);

    // Renamed by the organization's admin: the list follows.
    const renamed = await postForm(
      server,
      "acme.localhost",
      `/dashboard/users/${userId}`,
      { firstName: "Quinn", lastName: "Renamed", email: "quinn@acme.test", role: "learner", language: "" },
      admin,
    );
    expect(renamed.status).toBe(302);
    expect((await page("localhost", "/admin/users?q=quinn", superCookie)).body).toContain("Quinn Renamed");

    // Deleted: gone from the list and from the count.
    const deleted = await postForm(server, "acme.localhost", `/dashboard/users/${userId}/delete`, { intent: "delete" }, admin);
    expect(deleted.status).toBe(302);
    expect((await page("localhost", "/admin/users?q=quinn", superCookie)).body).not.toContain("quinn@acme.test");
    expect((await overview()).users).toBe(before.users);
  });

  it("count a change another process made in an organization's file once the organization is next used", async () => {
    const before = await overview();
    execTenant(
      server,
      2,
      "insert into users (email, first_name, last_name, role) values ('outside@nordlys.test', 'Ole', 'Udefra', 'learner')",
    );
    expect((await request(server.port, "nordlys.localhost", "/auth/login")).status).toBe(200);
    const after = await overview();
    expect(after.users).toBe(before.users + 1);
    expect(after.users).toBe(truth().users);
    expect((await page("localhost", "/admin/users?q=udefra", superCookie)).body).toContain("outside@nordlys.test");
  });
});
