import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { multipart, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Groups with rules, group admins, force_groups courses and the CSV import (issue 14), against a real
 * server: Nordlys is organization 2, Acme organization 1.
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

function importCsv(csv: string, query = "send_invitations=false", token = admin) {
  const upload = multipart({}, { file: { name: "people.csv", type: "text/csv", data: Buffer.from(csv) } });
  return request(server.port, ORG, `/api/users/import/2?${query}`, {
    method: "POST",
    headers: { "Content-Type": upload.contentType, Authorization: `Bearer ${token}` },
    body: upload.body,
  });
}

/** Polls a job until it is done or failed, for at most `withinMs`. */
async function waitForJob(id: number, withinMs = 25_000) {
  const seen: number[] = [];
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const job = (await call("GET", `jobs/${id}`)).json().payload;
    seen.push(job.progress);
    if (job.status === "done" || job.status === "failed") return { job, seen };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${id} did not finish in ${withinMs} ms`);
}

async function userTotal() {
  return (await call("GET", "users?per_page=1")).json().payload.meta.total as number;
}

describe("group admins and force_groups courses", () => {
  let lead: string;
  let teamId = 0;
  let otherId = 0;
  let courseId = 0;

  beforeAll(async () => {
    execTenant(
      server,
      2,
      "insert into users (email, first_name, role) values ('lead@nordlys.test', 'Lea', 'learner'), ('outsider@nordlys.test', 'Otto', 'learner')",
    );
    teamId = (await call("POST", "groups", { name: "Team Nord" })).json().payload.id;
    otherId = (await call("POST", "groups", { name: "Team Vest" })).json().payload.id;
    const users = (await call("GET", "users/search?q=lead@nordlys")).json().payload.data;
    const attached = await call("POST", `groups/${teamId}/attach`, { admin_ids: [users[0].id] });
    expect(attached.status, attached.body).toBe(200);
    lead = insertSession(server, { organizationId: 2 }, { email: "lead@nordlys.test", kind: "api" });
    courseId = (await call("POST", "courses", { title: "Kun for Team Nord", type: "series", published: true, force_groups: true })).json()
      .payload.id;
    await call("POST", "lessons", { course_id: courseId, title: "Intro", kind: "text", body: "<p>Hej</p>" });
    expect((await call("POST", `groups/${teamId}/attach`, { course_ids: [courseId] })).status).toBe(200);
  });

  it("lets a group admin manage its own group's members and nothing else", async () => {
    const learner = (await call("GET", "users/search?q=learner@nordlys")).json().payload.data[0];
    const listed = (await call("GET", "groups", undefined, lead)).json().payload.data.map((g: { name: string }) => g.name);
    expect(listed).toEqual(["Team Nord"]);
    // It adds only people it already manages (issue 44, tests/integration/group-admin-reach.test.ts): the
    // learner is in none of its groups, so the organization admin adds them.
    expect((await call("POST", `groups/${teamId}/attach`, { user_ids: [learner.id] }, lead)).status).toBe(403);
    expect((await call("POST", `groups/${teamId}/attach`, { user_ids: [learner.id] })).status).toBe(200);
    expect((await call("POST", `groups/${otherId}/attach`, { user_ids: [learner.id] }, lead)).status).toBe(404);
    expect((await call("POST", `groups/${teamId}/attach`, { course_ids: [courseId] }, lead)).status).toBe(403);
    expect((await call("PUT", `groups/${teamId}`, { name: "Mine" }, lead)).status).toBe(403);
    expect((await call("POST", "groups", { name: "Ny" }, lead)).status).toBe(403);
    // Its members, and only them, are visible to it (with their progress on its own page).
    const visible = (await call("GET", "users", undefined, lead))
      .json()
      .payload.data.map((u: { email: string }) => u.email)
      .sort();
    expect(visible).toEqual(["lead@nordlys.test", "learner@nordlys.test"]);
    const cookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "lead@nordlys.test", kind: "web" }));
    const page = await request(server.port, ORG, `/groups/${teamId}`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain("learner@nordlys.test");
    expect((await request(server.port, ORG, `/groups/${otherId}`, { headers: { Cookie: cookie } })).status).toBe(404);
    expect((await request(server.port, ORG, "/dashboard/users", { headers: { Cookie: cookie } })).status).toBe(403);
  });

  it("opens a force_groups course to its groups' members only, with the spec's message for others", async () => {
    const asPerson = async (email: string) => {
      const cookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email, kind: "web" }));
      return (await request(server.port, ORG, `/courses/${courseId}`, { headers: { Cookie: cookie } })).body;
    };
    expect(await asPerson("learner@nordlys.test")).not.toContain('data-reason="limited"');
    const outsider = await asPerson("outsider@nordlys.test");
    expect(outsider).toContain('data-reason="limited"');
    expect(outsider).toContain("Begrænset adgang til kurset (kontakt din rådgiver)"); // Nordlys speaks Danish
  });
});

// The 50,000-row import is the file's last test: nothing writes beside the server while its big write settles.
describe("groups with rules and the CSV import", () => {
  let salesId = 0;

  it("imports a CSV whose rows fall in and out of a rule; the rule's members appear", async () => {
    const created = await call("POST", "groups", {
      name: "Sales",
      rules: [{ field: "email", operator: "ends_with", value: "@sales.nordlys.test" }],
    });
    expect(created.status, created.body).toBe(201);
    salesId = created.json().payload.id;
    const res = await importCsv(
      "First name,Last name,Phone,Email\nSara,Salg,+45 11 22 33 44,sara@sales.nordlys.test\nPer,Plan,,per@plan.nordlys.test\nSune,,,sune@SALES.nordlys.test\n",
    );
    expect(res.status, res.body).toBe(202);
    const { job } = await waitForJob(res.json().payload.job.id);
    expect(job.status).toBe("done");
    expect(job.result.imported).toBe(3);
    const group = (await call("GET", `groups/${salesId}`)).json().payload;
    expect(group.member_count).toBe(2);
    // A change of address moves a person in or out of the rule at once.
    const per = (await call("GET", "users/search?q=per@plan")).json().payload.data[0];
    const edited = await call("PUT", `users/${per.id}`, {
      email: "per@sales.nordlys.test",
      firstName: "Per",
      lastName: "Plan",
      role: "learner",
    });
    expect(edited.status, edited.body).toBe(200);
    expect((await call("GET", `groups/${salesId}`)).json().payload.member_count).toBe(3);
  });

  it("refuses a file with one bad row in the middle, names the line, and imports nothing", async () => {
    const before = await userTotal();
    const rows = Array.from({ length: 40 }, (_, i) => `Navn${i},Efternavn,,navn${i}@bad.nordlys.test`);
    rows[20] = "Ond,=cmd|' /C calc'!A0,,ond@bad.nordlys.test";
    const res = await importCsv(rows.join("\n"));
    expect(res.status).toBe(422);
    const payload = res.json().payload;
    expect(Object.keys(payload.fields)).toEqual(["line 21"]);
    expect(payload.fields["line 21"][0]).toMatch(/regnearksformel/); // Nordlys speaks Danish;
    expect(await userTotal()).toBe(before);
  });

  it("reports duplicates (in the file and in the organization) and refuses what is not CSV", async () => {
    const dup = await importCsv("A,A,,a@dup.nordlys.test\nB,B,,A@dup.nordlys.test\nC,C,,learner@nordlys.test\n");
    expect(dup.status).toBe(422);
    expect(Object.keys(dup.json().payload.fields)).toEqual(["line 2", "line 3"]);
    const binary = await importCsv(String.fromCharCode(0x50, 0x4b, 3, 4, 0, 0, 0));
    expect(binary.status).toBe(422);
    expect(binary.json().payload.fields.file[0]).toMatch(/ikke en CSV-fil/);
  });

  it("treats another organization's address as an ordinary new person here", async () => {
    const res = await importCsv("Acme,Admin,,admin@acme.test\n");
    expect(res.status, res.body).toBe(202);
    const { job } = await waitForJob(res.json().payload.job.id);
    expect(job.result.imported).toBe(1);
    const found = (await call("GET", "users/search?q=admin@acme.test")).json().payload.data;
    expect(found).toHaveLength(1);
  });

  it("imports 50,000 rows in one job with progress", async () => {
    const before = await userTotal();
    const lines = ["First name,Last name,Phone,Email"];
    for (let i = 0; i < 50_000; i++) lines.push(`Person${i},Efternavn${i % 97},,person${i}@big.nordlys.test`);
    const res = await importCsv(lines.join("\n"));
    expect(res.status, res.body).toBe(202);
    const { job } = await waitForJob(res.json().payload.job.id, 170_000);
    expect(job.status, job.error).toBe("done");
    expect(job.progress).toBe(100);
    expect(job.result.imported).toBe(50_000);
    expect(await userTotal()).toBe(before + 50_000);
  }, 180_000);
});
