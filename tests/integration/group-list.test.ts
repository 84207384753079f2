import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * The groups management list (issue 50; app/models/group-list.server.ts) against the real server, as its GET form
 * asks without JavaScript, on a hand-counted fixture: "Xgroup 01" to "Xgroup 30", group n with n members (the
 * demo's first n learners), the multiples of five kept by a rule. Search, the kind filter, the members sort, pages.
 */
let server: InProcessServer;
const ORG = "acme.localhost";
const LIST = "/dashboard/organizations/1/groups";
let admin: string;
const pad = (n: number) => String(n).padStart(2, "0");

async function page(search: string) {
  const res = await request(server.port, ORG, `${LIST}${search}`, { headers: { Cookie: admin } });
  expect(res.status).toBe(200);
  return {
    names: [...res.body.matchAll(/data-group="([^"]+)"/g)].map((m) => m[1]),
    total: /data-testid="list-total">([^<]*)</.exec(res.body)?.[1],
    body: res.body,
  };
}

beforeAll(async () => {
  server = await startInProcess();
  admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
  for (let n = 1; n <= 30; n++) {
    execTenant(server, 1, "insert into groups (name) values (?)", `Xgroup ${pad(n)}`);
    execTenant(
      server,
      1,
      `insert into group_members (group_id, user_id)
       select (select id from groups where name = ?), id from users where role = 'learner' order by id limit ?`,
      `Xgroup ${pad(n)}`,
      n,
    );
    if (n % 5 === 0)
      execTenant(
        server,
        1,
        "insert into group_rules (group_id, field, operator, value) values ((select id from groups where name = ?), 'email', 'contains', 'zzz-nobody')",
        `Xgroup ${pad(n)}`,
      );
  }
});
afterAll(async () => {
  await server?.stop();
});

describe("the groups list", () => {
  it("searches by name, a page at a time with the total", async () => {
    const first = await page("?q=xgroup");
    expect(first.total).toBe("1–25 of 30");
    expect(first.names).toEqual(Array.from({ length: 25 }, (_, i) => `Xgroup ${pad(i + 1)}`));
    expect((await page("?q=xgroup&page=2")).names).toEqual(["Xgroup 26", "Xgroup 27", "Xgroup 28", "Xgroup 29", "Xgroup 30"]);
  });

  it("filters groups kept by rules or by hand, and sorts by members", async () => {
    expect((await page("?q=xgroup&kind=rules")).names).toEqual([
      "Xgroup 05",
      "Xgroup 10",
      "Xgroup 15",
      "Xgroup 20",
      "Xgroup 25",
      "Xgroup 30",
    ]);
    expect((await page("?q=xgroup&kind=manual&per_page=50")).names).toHaveLength(24);
    const most = await page("?q=xgroup&sort=members");
    expect(most.names.slice(0, 3)).toEqual(["Xgroup 30", "Xgroup 29", "Xgroup 28"]);
    expect(most.body).toContain("Members: 28");
    expect((await page("?q=xgroup&sort=members&dir=asc")).names[0]).toBe("Xgroup 01");
    // Each group's own counts: Xgroup 05 has its one rule, Xgroup 04 none (a count of every group's rules that named
    // the rule's own id instead of the group's once read otherwise).
    const card = (body: string, name: string) => new RegExp(`data-group="${name}">[\\s\\S]*?</li>`).exec(body)?.[0] ?? "";
    const fives = await page("?q=xgroup&kind=rules");
    expect(card(fives.body, "Xgroup 05")).toMatch(/Members: 5 · Courses: 0<!-- --> · Rules: 1</);
    expect(card(most.body, "Xgroup 28")).not.toContain("Rules:");
  });
});
