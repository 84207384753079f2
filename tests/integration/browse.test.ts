import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, postForm } from "../helpers/auth";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * The learner's browsing pages (issue 18) as served HTML, no browser: the demo's covers on categories,
 * carousels and groups, the home page's rows and cards, helpful empty states, and choosing a cover in
 * the dashboard and through /api (a bad choice changes nothing).
 */
let server: InProcessServer;
let learner: string;
let admin: string;
const ORG = "nordlys.localhost";
/** The learner has begun two series: part of a first episode watched. */
const BEGIN = `insert into lesson_progress (user_id, lesson_id, course_id, position_seconds, watched_seconds)
  select u.id, l.id, l.course_id, ?, ? from users u, lessons l join courses c on c.id = l.course_id
  where u.email = 'learner@nordlys.test' and c.title = ? and l.kind = 'video' order by l.position limit 1`;
beforeAll(async () => {
  server = await startInProcess();
  learner = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
  admin = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
  execTenant(server, 2, BEGIN, 7, 7, "Førstehjælp på arbejdspladsen");
  execTenant(server, 2, BEGIN, 4, 4, "Bæredygtighed i hverdagen");
});
afterAll(() => server?.stop());

const page = (p: string, cookie?: string) => request(server.port, ORG, p, { headers: cookie ? { Cookie: cookie } : {} });
function query<T>(sql: string, ...params: unknown[]) {
  const db = new Database(path.join(server.dataDir, "org-2", "db.sqlite"), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

describe("the demo's covers", () => {
  it("gives every category, carousel and group an image of the file library", () => {
    for (const table of ["categories", "carousels", "groups"]) {
      const rows = query<{ cover_file_id: number | null; kind: string | null }>(
        `select t.cover_file_id, f.kind from ${table} t left join files f on f.id = t.cover_file_id`,
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.kind).toBe("image");
    }
  });
});

describe("home", () => {
  it("shows the featured hero, continue watching with progress, carousel rows, category tiles and cards with facts", async () => {
    const res = await page("/", learner);
    expect(res.status).toBe(200);
    const html = res.body;
    expect(html).toMatch(/data-testid="featured"[\s\S]*?<img[^>]+srcset="[^"]+ \d+w/i);
    expect(html).toContain('data-testid="continue-watching"');
    expect(html).toMatch(/class="card-progress" role="img" aria-label="\d+ % set"/);
    // Each carousel is a focusable, sideways-scrolling list.
    expect(html).toContain('data-carousel="Kom godt i gang"');
    expect((html.match(/<ul class="row-track" tabindex="0"/g) ?? []).length).toBeGreaterThanOrEqual(3);
    expect(html).toContain('data-testid="home-categories"');
    expect(html).toMatch(/data-category="Sikkerhed"[\s\S]*?<img[^>]+loading="lazy"/);
    // A series card says it is a series, how many episodes and how long.
    expect(html).toMatch(/Serie<\/span><span>4 afsnit<\/span><span>\d+ sek\.<\/span>/);
    // Images carry their size, so nothing shifts as they load.
    for (const img of html.match(/<img[^>]+>/g) ?? []) {
      if (!img.includes("/images/cover/")) continue;
      expect(img).toMatch(/width="\d+"/);
      expect(img).toMatch(/height="\d+"/);
    }
    // The page's heading stays "Kurser" (other tests look for it).
    expect(html).toContain(`<h1 class="visually-hidden">Kurser</h1>`);
  });

  // Card totals are kept per connection while the content version is unchanged (browse.server courseTotals).
  it("counts a course's episodes afresh once its lessons change", async () => {
    const [course] = query<{ id: number; n: number }>(
      "select c.id, count(l.id) as n from courses c join lessons l on l.course_id = c.id where c.title = 'Bæredygtighed i hverdagen' and l.kind <> 'quiz' group by c.id",
    );
    const episodes = async () => {
      const html = (await page("/", learner)).body;
      const counts = [...html.matchAll(new RegExp(`data-course-id="${course.id}"[\\s\\S]*?<span>(\\d+) afsnit</span>`, "g"))].map((m) =>
        Number(m[1]),
      );
      expect(counts.length).toBeGreaterThan(0);
      expect(new Set(counts).size).toBe(1);
      return counts[0];
    };
    expect(await episodes()).toBe(course.n);
    execTenant(
      server,
      2,
      "insert into lessons (course_id, title, kind, body, position) values (?, 'Et afsnit mere', 'text', '<p>Mere</p>', 99)",
      course.id,
    );
    expect(await episodes()).toBe(course.n + 1);
    execTenant(server, 2, "delete from lessons where course_id = ? and title = 'Et afsnit mere'", course.id);
    expect(await episodes()).toBe(course.n);
  });

  // The first page of courses and the cards' fields are kept while the content version is unchanged.
  it("shows a course's new title and a newly published course at once, in continue watching and in all courses", async () => {
    const section = (html: string, testId: string) =>
      html.slice(html.indexOf(`data-testid="${testId}"`), html.indexOf("</ul>", html.indexOf(`data-testid="${testId}"`)));
    let html = (await page("/", learner)).body;
    expect(section(html, "continue-watching")).toContain("Bæredygtighed i hverdagen");
    expect(section(html, "all-courses")).toContain("Bæredygtighed i hverdagen");
    execTenant(server, 2, "update courses set title = 'Grøn hverdag' where title = 'Bæredygtighed i hverdagen'");
    execTenant(
      server,
      2,
      "insert into courses (title, description, type, published, position) values ('Helt nyt kursus', '<p>Nyt</p>', 'movie', 1, -1)",
    );
    try {
      html = (await page("/", learner)).body;
      expect(section(html, "continue-watching")).toContain("Grøn hverdag");
      expect(section(html, "all-courses")).toContain("Grøn hverdag");
      expect(html).not.toContain("Bæredygtighed i hverdagen");
      expect(section(html, "all-courses")).toContain("Helt nyt kursus");
    } finally {
      execTenant(server, 2, "update courses set title = 'Bæredygtighed i hverdagen' where title = 'Grøn hverdag'");
      execTenant(server, 2, "delete from courses where title = 'Helt nyt kursus'");
    }
    html = (await page("/", learner)).body;
    expect(section(html, "continue-watching")).toContain("Bæredygtighed i hverdagen");
    expect(html).not.toContain("Helt nyt kursus");
  });

  it("tells a signed-in learner with nothing begun how continue watching works", async () => {
    const fresh = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
    const html = (await page("/", fresh)).body;
    expect(html).toContain('data-testid="continue-empty"');
    expect(html).toContain("Kurser, du starter på, vises her");
  });
});

describe("browsing pages", () => {
  it("/categories shows tiles with covers and counts", async () => {
    const html = (await page("/categories", learner)).body;
    expect(html).toMatch(/data-category="Introduktion"[\s\S]*?<img[^>]+src="\/images\/cover\//);
    expect(html).toContain("2 kurser");
  });

  it("/categories/{id} shows its cover and its courses; an empty one says what to do", async () => {
    const [category] = query<{ id: number }>("select id from categories where name = 'Sikkerhed'");
    const html = (await page(`/categories/${category.id}`, learner)).body;
    expect(html).toMatch(/data-testid="category-banner"[\s\S]*?<img[^>]+\/images\/cover\//);
    expect(html).toContain("Førstehjælp på arbejdspladsen");
  });

  it("/carousels shows each carousel under its cover", async () => {
    const html = (await page("/carousels", learner)).body;
    expect(html).toMatch(/class="row-head with-cover"><img[^>]+\/images\/cover\//);
    expect(html).toContain("Populært lige nu");
  });

  it("empty search, history and bookmarks say what to do next, with a link", async () => {
    const search = (await page("/search?q=zzzqqq", learner)).body;
    expect(search).toMatch(/data-testid="search-empty"[\s\S]*?href="\/categories"/);
    const history = (await page("/history", admin)).body;
    expect(history).toMatch(/data-testid="history-empty"[\s\S]*?href="\/categories"/);
    const bookmarks = (await page("/profile/bookmarks", admin)).body;
    expect(bookmarks).toMatch(/data-testid="bookmarks-empty"[\s\S]*?href="\/categories"/);
  });
});

describe("choosing a cover in the dashboard", () => {
  it("sets a category's cover from the library, refuses a file that is not an image, and clears it", async () => {
    const [category] = query<{ id: number; cover_file_id: number }>(
      "select id, cover_file_id from categories where name = 'Bæredygtighed'",
    );
    const [pdf] = query<{ id: number }>("select id from files where kind <> 'image' limit 1");
    const [image] = query<{ id: number }>("select id from files where kind = 'image' and id <> ? limit 1", category.cover_file_id);
    const url = `/dashboard/organizations/2/categories/${category.id}`;
    const edit = (await page(url, admin)).body;
    expect(edit).toContain('name="cover_file_id"');

    const bad = await postForm(server, ORG, url, { name: "Ændret navn", cover_file_id: String(pdf.id) }, admin);
    expect(bad.status).toBe(400);
    expect(query("select name, cover_file_id from categories where id = ?", category.id)).toEqual([
      { name: "Bæredygtighed", cover_file_id: category.cover_file_id },
    ]);
    const junk = await postForm(server, ORG, url, { name: "Bæredygtighed", cover_file_id: "abc" }, admin);
    expect(junk.status).toBe(400);

    const ok = await postForm(server, ORG, url, { name: "Bæredygtighed", cover_file_id: String(image.id) }, admin);
    expect(ok.status).toBe(302);
    expect(query("select cover_file_id from categories where id = ?", category.id)).toEqual([{ cover_file_id: image.id }]);
    const cleared = await postForm(server, ORG, url, { name: "Bæredygtighed", cover_file_id: "" }, admin);
    expect(cleared.status).toBe(302);
    expect(query("select cover_file_id from categories where id = ?", category.id)).toEqual([{ cover_file_id: null }]);
    // A learner cannot.
    const learnerTry = await postForm(server, ORG, url, { name: "X", cover_file_id: "" }, learner);
    expect([403, 404]).toContain(learnerTry.status);
  });

  it("sets a carousel's cover", async () => {
    const [carousel] = query<{ id: number }>("select id from carousels order by id limit 1");
    const [image] = query<{ id: number }>("select id from files where kind = 'image' order by id desc limit 1");
    const url = `/dashboard/organizations/2/carousels/${carousel.id}`;
    const ok = await postForm(
      server,
      ORG,
      url,
      { intent: "save", title: "Kom godt i gang", published: "on", cover_file_id: String(image.id) },
      admin,
    );
    expect(ok.status).toBe(302);
    expect(query("select cover_file_id, published from carousels where id = ?", carousel.id)).toEqual([
      { cover_file_id: image.id, published: 1 },
    ]);
  });
});

describe("covers through /api", () => {
  it("a category and a carousel take cover_file_id: an image of the library, never another kind of file", async () => {
    const token = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
    const call = (method: string, p: string, body?: unknown) => api(server, ORG, method, p, { token, body });
    const [image] = query<{ id: number }>("select id from files where kind = 'image' order by id limit 1");
    const [pdf] = query<{ id: number }>("select id from files where kind <> 'image' limit 1");
    const created = await call("POST", "courses/categories", { name: "Med omslag", cover_file_id: image.id });
    expect(created.status, created.body).toBe(201);
    expect(created.json().payload).toMatchObject({ name: "Med omslag", cover_file_id: image.id });
    const refused = await call("PUT", `courses/categories/${created.json().payload.id}`, { name: "Andet", cover_file_id: pdf.id });
    expect(refused.status).toBe(422);
    expect((await call("GET", `courses/categories/${created.json().payload.id}`)).json().payload).toMatchObject({
      name: "Med omslag",
      cover_file_id: image.id,
    });
    const carousel = await call("POST", "courses-carousels", { title: "Med omslag", cover_file_id: image.id });
    expect(carousel.status, carousel.body).toBe(201);
    expect(carousel.json().payload.cover_file_id).toBe(image.id);
    expect((await call("POST", "courses-carousels", { title: "Forkert", cover_file_id: pdf.id })).status).toBe(422);
    const cleared = await call("PUT", `courses-carousels/${carousel.json().payload.id}`, { cover_file_id: null });
    expect(cleared.json().payload.cover_file_id).toBeNull();
  });
});
