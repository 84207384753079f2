import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, cookieFrom, loginPage, postForm } from "../helpers/auth";
import { request } from "../helpers/http";
import { linkFrom, startMailbox, type Mailbox } from "../helpers/mail";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

let server: InProcessServer;
let mailbox: Mailbox;
let superCookie: string;
let superToken: string;
beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startInProcess({ env: { SMTP_URL: mailbox.url } });
  superCookie = await cookieFor(insertSession(server, "platform", { email: "super@lectern.test", kind: "web" }));
  superToken = insertSession(server, "platform", { email: "super@lectern.test", kind: "api" });
});
afterAll(async () => {
  await server?.stop();
  await mailbox?.close();
});

const page = (host: string, p: string, cookie?: string | null) =>
  request(server.port, host, p, { headers: cookie ? { Cookie: cookie } : {} });

describe("the super-admin creates an organization", () => {
  it("provisions it, its host resolves and shows its name, and its first admin is invited", async () => {
    const created = await postForm(
      server,
      "localhost",
      "/admin/organizations",
      { name: "Fjord School", language: "no", urlPrefix: "fjord", adminEmail: "head@fjord.test" },
      superCookie,
    );
    expect(created.status).toBe(302);
    const location = created.headers.location!;
    expect(location).toMatch(/^\/admin\/organizations\/\d+$/);
    const id = Number(location.split("/").pop());
    expect(fs.existsSync(path.join(server.dataDir, `org-${id}`, "db.sqlite"))).toBe(true);

    const home = await page("fjord.localhost", "/");
    expect(home.status).toBe(200);
    expect(home.body).toContain("<title>Fjord School</title>");
    expect(home.body).toMatch(/<html[^>]*lang="no"/);
    const resolved = await request(server.port, "localhost", "/api/resolve?domain=fjord.localhost");
    expect(resolved.json().payload).toMatchObject({ id, name: "Fjord School", language: "no" });

    const list = await page("localhost", "/admin/organizations", superCookie);
    expect(list.body).toContain("Fjord School");
    expect(list.body).toContain(`http://fjord.localhost:${server.port}`);
    const csv = await api(server, "localhost", "GET", "organizations/export", { token: superToken });
    expect(csv.status).toBe(200);
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
    expect(csv.headers["content-disposition"]).toMatch(/attachment/);
    expect(csv.body).toContain(`${id},Fjord School,http://fjord.localhost:${server.port},fjord`);

    // The invitation: a set-password link on the new organization's own host.
    const mail = await mailbox.next("head@fjord.test");
    expect(mail.subject).toBe("Du er invitert til Fjord School");
    const link = linkFrom(mail);
    expect(link.host).toBe(`fjord.localhost:${server.port}`);
    const set = await postForm(server, "fjord.localhost", link.pathname, { password: "fjord-pass", passwordConfirmation: "fjord-pass" });
    expect(set.status).toBe(302);
    const { cookie } = await loginPage(server, "fjord.localhost", "head@fjord.test", "fjord-pass");
    expect((await page("fjord.localhost", "/dashboard", cookie)).status).toBe(200);
  });

  it("refuses an address another organization uses, creating nothing", async () => {
    const before = fs.readdirSync(server.dataDir).filter((f) => f.startsWith("org-")).length;
    const res = await postForm(
      server,
      "localhost",
      "/admin/organizations",
      { name: "Copy", language: "en", urlPrefix: "acme" },
      superCookie,
    );
    expect(res.status).toBe(400);
    expect(res.body).toContain("Another organization already uses this address.");
    expect(fs.readdirSync(server.dataDir).filter((f) => f.startsWith("org-")).length).toBe(before);
  });

  it("makes a url prefix from the name when none is given", async () => {
    const res = await api(server, "localhost", "POST", "organizations", {
      token: superToken,
      body: { name: "Ærø Øvelser", language: "da" },
    });
    expect(res.status).toBe(201);
    expect(res.json().payload.urlPrefix).toBe("aero-ovelser");
    expect((await page("aero-ovelser.localhost", "/")).body).toContain("Ærø Øvelser");
  });

  it("edits settings, and a renamed host moves the organization", async () => {
    const res = await postForm(
      server,
      "localhost",
      "/admin/organizations/2?index",
      { name: "Nordlys Akademi", language: "da", urlPrefix: "nordlys", customDomain: "laer.nordlys.example", footer: "Ny sidefod" },
      superCookie,
    );
    expect(res.status).toBe(302);
    expect((await page("laer.nordlys.example", "/")).body).toContain("Ny sidefod");
    expect((await page("nordlys.localhost", "/")).body).toContain("Ny sidefod");
  });

  it("deletes an organization by moving its folder aside, after asking", async () => {
    const created = (
      await api(server, "localhost", "POST", "organizations", {
        token: superToken,
        body: { name: "Short Lived", language: "en", urlPrefix: "short" },
      })
    ).json().payload;
    const confirm = await page("localhost", `/admin/organizations/${created.id}/delete`, superCookie);
    expect(confirm.body).toContain("Are you sure? This action cannot be undone");
    const deleted = await postForm(server, "localhost", `/admin/organizations/${created.id}/delete`, { intent: "delete" }, superCookie);
    expect(deleted.status).toBe(302);
    const flashed = await page("localhost", "/admin/organizations", `${superCookie}; ${cookieFrom(deleted, "lectern_flash")}`);
    expect(flashed.body).toContain("The organization has been deleted.");
    expect((await page("short.localhost", "/")).status).toBe(404);
    expect(fs.existsSync(path.join(server.dataDir, `org-${created.id}`))).toBe(false);
    const aside = fs.readdirSync(path.join(server.dataDir, "deleted"));
    expect(aside.some((f) => f.startsWith(`org-${created.id}-`))).toBe(true);
  });
});

describe("who reaches what", () => {
  it("keeps organization admins out of /admin and out of other organizations' dashboards", async () => {
    const admin = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
    expect((await page("nordlys.localhost", "/admin", admin)).status).toBe(404);
    expect((await page("localhost", "/admin", admin)).headers.location).toMatch(/^\/auth\/login/);
    expect((await page("nordlys.localhost", "/dashboard/organizations/1", admin)).status).toBe(404);
    expect((await page("acme.localhost", "/dashboard", admin)).headers.location).toMatch(/^\/auth\/login/);
    expect((await page("nordlys.localhost", "/dashboard/organizations/2", admin)).status).toBe(200);
  });

  it("answers a learner 403 on organizations and users", async () => {
    const learner = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
    for (const p of ["organizations", "users", "users/export", "organizations/export"]) {
      const res = await api(server, "nordlys.localhost", "GET", p, { token: learner });
      expect(res.status, p).toBe(403);
    }
    const learnerCookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
    expect((await page("nordlys.localhost", "/dashboard/users", learnerCookie)).status).toBe(403);
  });
});

describe("the organization admin manages users", () => {
  it("adds a user (invited by mail), sees them in the table, and deletes them after the confirmation", async () => {
    const admin = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
    const add = await postForm(
      server,
      "nordlys.localhost",
      "/dashboard/users/create",
      { firstName: "Ny", lastName: "Kollega", email: "ny@nordlys.test", role: "learner", language: "" },
      admin,
    );
    expect(add.status).toBe(302);
    // Back to the list newest first, the person just added at its top.
    expect(add.headers.location).toBe("/dashboard/users?sort=created&dir=desc");
    const newest = await page("nordlys.localhost", add.headers.location!, admin);
    expect(/<tr data-email="([^"]+)"/.exec(newest.body)?.[1]).toBe("ny@nordlys.test");
    const mail = await mailbox.next("ny@nordlys.test");
    expect(mail.subject).toBe("Du er blevet inviteret til Nordlys Akademi");
    const table = await page("nordlys.localhost", "/dashboard/users?q=kollega", admin);
    expect(table.body).toContain("ny@nordlys.test");
    const id = Number(table.body.match(/href="\/dashboard\/users\/(\d+)\/overview">Ny Kollega/)![1]);

    const duplicate = await postForm(
      server,
      "nordlys.localhost",
      "/dashboard/users/create",
      { email: "NY@nordlys.test", role: "learner" },
      admin,
    );
    expect(duplicate.status).toBe(400);

    const confirm = await page("nordlys.localhost", `/dashboard/users/${id}/delete`, admin);
    expect(confirm.body).toContain("Er du sikker? Handlingen kan ikke fortrydes");
    const del = await postForm(server, "nordlys.localhost", `/dashboard/users/${id}/delete`, { intent: "delete" }, admin);
    expect(del.status).toBe(302);
    expect((await page("nordlys.localhost", "/dashboard/users?q=kollega", admin)).body).not.toContain("ny@nordlys.test");
  });

  it("exports users as CSV with formula-looking cells neutralised", async () => {
    execTenant(
      server,
      2,
      "insert into users (email, first_name, last_name, role) values ('formula@nordlys.test', '=HYPERLINK(\"http://evil\")', '+1-2', 'learner')",
    );
    const admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
    const csv = await api(server, "nordlys.localhost", "GET", "users/export", { token: admin });
    const line = csv.body.split("\r\n").find((l) => l.includes("formula@nordlys.test"))!;
    expect(line).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(line).toContain(",'+1-2,");
    expect(csv.body).not.toContain("password");
  });

  it("cannot delete or demote themselves", async () => {
    const admin = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
    const self = await page("nordlys.localhost", "/dashboard/users/1", admin);
    expect(self.body).not.toContain('data-testid="delete-user"');
    expect((await postForm(server, "nordlys.localhost", "/dashboard/users/1/delete", { intent: "delete" }, admin)).status).toBe(403);
    await postForm(
      server,
      "nordlys.localhost",
      "/dashboard/users/1",
      { firstName: "Astrid", lastName: "Andersen", email: "admin@nordlys.test", role: "learner" },
      admin,
    );
    expect((await page("nordlys.localhost", "/dashboard", admin)).status).toBe(200);
  });
});

describe("branding", () => {
  it("shows an uploaded logo on the organization's pages", async () => {
    const sharp = (await import("sharp")).default;
    const logo = await sharp({ create: { width: 120, height: 40, channels: 3, background: "#ff8800" } })
      .png()
      .toBuffer();
    const { multipart } = await import("../helpers/http");
    const { body, contentType } = multipart(
      { field: "logo", intent: "upload" },
      { image: { name: "logo.png", type: "image/png", data: logo } },
    );
    const res = await request(server.port, "localhost", "/admin/organizations/1?index", {
      method: "POST",
      headers: { Cookie: superCookie, "Content-Type": contentType, "Sec-Fetch-Site": "same-origin" },
      body,
    });
    expect(res.status).toBe(302);
    const home = await page("acme.localhost", "/");
    const src = home.body.match(/<img src="([^"]+)" alt="" class="brand-logo"/)![1];
    expect(src).toMatch(/^\/files\/\d+\/\d+\/[A-Za-z0-9_-]{43}\/image$/);
    const image = await page("acme.localhost", src);
    expect(image.status).toBe(200);
    expect(image.headers["content-type"]).toBe("image/png");
    expect((await sharp(image.raw).metadata()).width).toBe(120);
  });
});
