import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * The courses management list (issue 50; app/models/course-list.server.ts) against the real server, as its GET form
 * asks without JavaScript: search, each filter, a sort in both directions, pages with the total, a page past the last,
 * and what is not valid left out and said. Thirty courses made here, "Zeta 01" to "Zeta 30": even ones are movies,
 * every third a draft, the first ten in the category "Listing"; the demo's nine courses are there too.
 */
let server: InProcessServer;
const ORG = "acme.localhost";
const LIST = "/dashboard/organizations/1/courses";
let admin: string;
let category: number;

const pad = (n: number) => String(n).padStart(2, "0");
async function page(search: string) {
  const res = await request(server.port, ORG, `${LIST}${search}`, { headers: { Cookie: admin } });
  expect(res.status).toBe(200);
  const titles = [...res.body.matchAll(/<tr data-course="([^"]+)"/g)].map((m) => m[1]);
  const total = /data-testid="list-total">([^<]*)</.exec(res.body)?.[1];
  return { titles, total, body: res.body };
}

beforeAll(async () => {
  server = await startInProcess();
  admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
  const token = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
  category = (await api(server, ORG, "POST", "courses/categories", { token, body: { name: "Listing" } })).json().payload.id;
  for (let n = 1; n <= 30; n++) {
    const made = await api(server, ORG, "POST", "courses", {
      token,
      body: {
        title: `Zeta ${pad(n)}`,
        type: n % 2 ? "series" : "movie",
        published: n % 3 !== 0,
        category_id: n <= 10 ? category : null,
      },
    });
    expect(made.status).toBe(201);
  }
});
afterAll(async () => {
  await server?.stop();
});

describe("the courses list", () => {
  it("searches, pages with the total, and shows the last page for a page past it", async () => {
    const first = await page("?q=zeta");
    expect(first.total).toBe("1–25 of 30");
    expect(first.titles).toEqual(Array.from({ length: 25 }, (_, i) => `Zeta ${pad(i + 1)}`));
    expect(first.body).toContain('rel="next"');
    const second = await page("?q=zeta&page=2");
    expect(second.titles).toEqual(["Zeta 26", "Zeta 27", "Zeta 28", "Zeta 29", "Zeta 30"]);
    expect(second.total).toBe("26–30 of 30");
    expect((await page("?q=zeta&page=9")).titles).toEqual(second.titles);
    expect((await page("?q=zeta&per_page=50")).titles).toHaveLength(30);
    // The whole list: the demo's nine and these thirty; none matching says so.
    expect((await page("")).total).toBe("1–25 of 39");
    expect((await page("?q=nothing-like-this")).total).toBe("Nothing matches.");
  });

  it("filters by kind, state and category, and sorts either way", async () => {
    expect((await page("?q=zeta&kind=movie&state=draft")).titles).toEqual(["Zeta 06", "Zeta 12", "Zeta 18", "Zeta 24", "Zeta 30"]);
    expect((await page("?q=zeta&state=draft")).titles).toHaveLength(10);
    expect((await page(`?category=${category}&per_page=50`)).titles).toEqual(Array.from({ length: 10 }, (_, i) => `Zeta ${pad(i + 1)}`));
    const down = await page("?q=zeta&sort=title&dir=desc");
    expect(down.titles.slice(0, 3)).toEqual(["Zeta 30", "Zeta 29", "Zeta 28"]);
    // A page link keeps the filters and the sort.
    expect(down.body).toContain(`href="${LIST}?q=zeta&amp;sort=title&amp;dir=desc&amp;page=2"`);
  });

  it("offers moving courses only on the whole list in its own order", async () => {
    expect((await page("")).body).toContain('data-testid="up-');
    expect((await page("?q=zeta")).body).not.toContain('data-testid="up-');
    expect((await page("?sort=title")).body).not.toContain('data-testid="up-');
  });

  it("leaves out what is not valid, says so, and shows the rest", async () => {
    const bad = await page(`?q=zeta&kind=podcast&sort=price&per_page=7&category=${category}`);
    expect(bad.titles).toHaveLength(10);
    expect(bad.body.match(/Not one of the choices: left out\./g)).toHaveLength(3);
    expect(bad.body).toContain('aria-invalid="true"');
  });
});
