import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * The quizzes, certificate templates and issued certificates management lists (issue 50;
 * app/models/quiz-list.server.ts, certificate-template-list.server.ts, certificate-list.server.ts) against the real
 * server, as their GET forms ask without JavaScript, on hand-counted fixtures in Acme beside the demo's rows (each
 * found by its prefix):
 * - quizzes "Zq 01" to "Zq 30", made in that order and last changed in the opposite one; quiz n has n % 4
 *   questions, the multiples of five are used in a lesson, 01–05 have a deadline passed and 06–10 one to come;
 *   30 has three finished attempts, 29 two (and an open one, not counted), 28 one;
 * - templates "Zt A" (two courses), "Zt B" (one) and "Zt C" (none), made A, C, B;
 * - certificates "Zc Person 01" to "Zc Person 30", issued a day apart in that order, each to a person of its own;
 *   odd n for course "Zc Course Odd", even for "Zc Course Even"; 01–10 with template "Zt A"; the multiples of ten
 *   revoked, 01–03 expired (04 and 05 expire in the future); so 24 valid.
 */
let server: InProcessServer;
const ORG = "acme.localhost";
const BASE = "/dashboard/organizations/1";
let admin: string;
let learner: string;
let nordlys: string;
const pad = (n: number) => String(n).padStart(2, "0");
const ids: { odd: number; even: number; templateA: number; person7: string } = { odd: 0, even: 0, templateA: 0, person7: "" };

async function page(list: string, search: string) {
  const res = await request(server.port, ORG, `${BASE}/${list}${search}`, { headers: { Cookie: admin } });
  expect(res.status, res.body.slice(0, 300)).toBe(200);
  const attribute = { quizzes: "data-quiz", "certificate-templates": "data-template", certificates: "data-certificate" }[list];
  const rows = [...res.body.matchAll(new RegExp(`<tr[^>]*${attribute}="([^"]+)"[^>]*>([\\s\\S]*?)</tr>`, "g"))];
  return {
    rows: rows.map((m) => m[1]),
    /** Each row's cells, by its key. */
    cells: Object.fromEntries(rows.map((m) => [m[1], [...m[2].matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1])])),
    /** The person's name of each certificate row. */
    people: rows.map((m) => /Zc Person \d\d/.exec(m[2])?.[0]),
    total: /data-testid="list-total">([^<]*)</.exec(res.body)?.[1],
    body: res.body,
  };
}

function read<T>(sql: string, ...params: unknown[]): T {
  const db = new Database(path.join(server.dataDir, "org-1", "db.sqlite"), { readonly: true });
  try {
    return db.prepare(sql).get(...params) as T;
  } finally {
    db.close();
  }
}

function quizzesFixture(now: number) {
  execTenant(
    server,
    1,
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < 30)
     insert into quizzes (title, deadline, created_at, updated_at)
     select 'Zq ' || printf('%02d', i), case when i <= 5 then @now - 86400 when i <= 10 then @now + 864000 end, @now - 1000 + i, @now - 1000 + 31 - i from n`,
    { now },
  );
  execTenant(
    server,
    1,
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < 3)
     insert into quiz_questions (quiz_id, type, prompt, options, accepted, position)
     select q.id, 'text', 'Why?', '[]', '["because"]', n.i from quizzes q join n on n.i <= cast(substr(q.title, 4) as integer) % 4
     where q.title like 'Zq %'`,
  );
  execTenant(
    server,
    1,
    `insert into quiz_lessons (lesson_id, quiz_id)
     select l.id, q.id from (select id, row_number() over (order by id) r from lessons where id not in (select lesson_id from quiz_lessons) limit 6) l
     join (select id, row_number() over (order by id) r from quizzes where title like 'Zq %' and cast(substr(title, 4) as integer) % 5 = 0) q on q.r = l.r`,
  );
  const attempt = (title: string, userOffset: number, ended: boolean) =>
    execTenant(
      server,
      1,
      `insert into quiz_attempts (quiz_id, user_id, attempt_number, questions, pass_min, started_at, ended_at)
       values ((select id from quizzes where title = ?), (select id from users where role = 'learner' order by id limit 1 offset ?), 1, '[]', 0, ?, ?)`,
      title,
      userOffset,
      now,
      ended ? now : null,
    );
  for (const [title, finished, open] of [
    ["Zq 30", 3, 0],
    ["Zq 29", 2, 1],
    ["Zq 28", 1, 0],
  ] as const) {
    for (let i = 0; i < finished + open; i++) attempt(title, i, i < finished);
  }
}

function templatesFixture(now: number) {
  for (const [name, at] of [
    ["Zt A", 1],
    ["Zt C", 2],
    ["Zt B", 3],
  ] as const)
    execTenant(
      server,
      1,
      "insert into certificate_templates (name, is_default, layout, created_at, updated_at) select ?, 0, layout, ?, ? from certificate_templates where is_default = 1",
      name,
      now - 100 + at,
      now - 100 + at,
    );
  execTenant(
    server,
    1,
    `insert into course_certificate_templates (course_id, template_id)
     select c.id, (select id from certificate_templates where name = case c.r when 3 then 'Zt B' else 'Zt A' end)
     from (select id, row_number() over (order by id) r from courses where id not in (select course_id from course_certificate_templates) limit 3) c`,
  );
  ids.templateA = read<{ id: number }>("select id from certificate_templates where name = 'Zt A'").id;
}

function certificatesFixture(now: number) {
  const courses = read<{ odd: number; even: number }>(
    "select (select id from courses order by id limit 1) odd, (select id from courses order by id limit 1 offset 1) even",
  );
  Object.assign(ids, courses);
  execTenant(
    server,
    1,
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < 30),
       p as (select id, row_number() over (order by id) r from users where role = 'learner' and id not in (select user_id from certificates))
     insert into certificates (public_id, user_id, course_id, issued_for_course_id, template_id, learner_name, course_title, locale,
       layout, issued_at, expires_on, revoked_at, revoked_reason)
     select 'ZC00-0000-00' || printf('%02d', i), p.id, case i % 2 when 1 then @odd else @even end, 900000 + i,
       case when i <= 10 then @template else (select id from certificate_templates where is_default = 1) end,
       'Zc Person ' || printf('%02d', i), case i % 2 when 1 then 'Zc Course Odd' else 'Zc Course Even' end, 'en', '{}',
       @now - 40 * 86400 + i * 86400, case when i <= 3 then '2000-01-01' when i <= 5 then '2999-12-31' end,
       case when i % 10 = 0 then @now end, case when i % 10 = 0 then 'Mistake' end
     from n join p on p.r = n.i`,
    { now, odd: courses.odd, even: courses.even, template: ids.templateA },
  );
  ids.person7 = read<{ email: string }>(
    "select u.email from certificates c join users u on u.id = c.user_id where c.learner_name = 'Zc Person 07'",
  ).email;
}

beforeAll(async () => {
  server = await startInProcess();
  admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
  learner = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
  nordlys = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
  const now = Math.floor(Date.now() / 1000);
  quizzesFixture(now);
  templatesFixture(now);
  certificatesFixture(now);
});
afterAll(async () => {
  await server?.stop();
});

const zq = (...n: number[]) => n.map((i) => `Zq ${pad(i)}`);
const zc = (...n: number[]) => n.map((i) => `Zc Person ${pad(i)}`);

describe("the quizzes list", () => {
  it("searches by title, newest first, a page at a time with the total", async () => {
    const first = await page("quizzes", "?q=zq");
    expect(first.total).toBe("1–25 of 30");
    expect(first.rows.slice(0, 3)).toEqual(zq(30, 29, 28));
    const second = await page("quizzes", "?q=zq&page=2");
    expect(second.rows).toEqual(zq(5, 4, 3, 2, 1));
    expect(second.total).toBe("26–30 of 30");
  });

  it("filters by use in a lesson and by deadline", async () => {
    expect((await page("quizzes", "?q=zq&use=used")).rows).toEqual(zq(30, 25, 20, 15, 10, 5));
    expect((await page("quizzes", "?q=zq&use=unused&per_page=50")).total).toBe("1–24 of 24");
    expect((await page("quizzes", "?q=zq&deadline=passed")).rows).toEqual(zq(5, 4, 3, 2, 1));
    expect((await page("quizzes", "?q=zq&deadline=open")).rows).toEqual(zq(10, 9, 8, 7, 6));
    expect((await page("quizzes", "?q=zq&deadline=none")).total).toBe("1–20 of 20");
  });

  it("sorts by every column it offers", async () => {
    expect((await page("quizzes", "?q=zq&sort=title&dir=asc")).rows.slice(0, 2)).toEqual(zq(1, 2));
    expect((await page("quizzes", "?q=zq&sort=title&dir=desc")).rows.slice(0, 2)).toEqual(zq(30, 29));
    expect((await page("quizzes", "?q=zq&sort=created&dir=asc")).rows.slice(0, 2)).toEqual(zq(1, 2));
    expect((await page("quizzes", "?q=zq&sort=updated")).rows.slice(0, 2)).toEqual(zq(1, 2));
    // Three questions: 3, 7, …, 27; equal counts in the id's order, the same direction.
    const questions = await page("quizzes", "?q=zq&sort=questions");
    expect(questions.rows.slice(0, 3)).toEqual(zq(27, 23, 19));
    expect(questions.cells["Zq 27"][1]).toBe("3");
    const lessons = await page("quizzes", "?q=zq&sort=lessons");
    expect(lessons.rows.slice(0, 6)).toEqual(zq(30, 25, 20, 15, 10, 5));
    expect(lessons.cells["Zq 30"][2]).toBe("Lessons: 1");
    const attempts = await page("quizzes", "?q=zq&sort=attempts");
    expect(attempts.rows.slice(0, 4)).toEqual(zq(30, 29, 28, 27));
    expect(attempts.cells["Zq 29"][3]).toBe("2");
    // Soonest deadline first, none last; and back.
    expect((await page("quizzes", "?q=zq&sort=deadline&dir=asc")).rows.slice(0, 6)).toEqual(zq(1, 2, 3, 4, 5, 6));
    expect((await page("quizzes", "?q=zq&sort=deadline&dir=desc&page=2")).rows.slice(-2)).toEqual(zq(2, 1));
  });

  it("names a parameter it cannot use rather than failing, and shows only to the organization's admins", async () => {
    const bad = await page("quizzes", "?q=zq&use=sometimes&sort=colour");
    expect(bad.total).toBe("1–25 of 30");
    expect(bad.body).toContain('id="quizzes-list-use-error"');
    expect(bad.body).toContain("Not one of the choices: left out.");
    const asLearner = await request(server.port, ORG, `${BASE}/quizzes?q=zq`, { headers: { Cookie: learner } });
    expect(asLearner.status).not.toBe(200);
    expect(asLearner.body).not.toContain("Zq 01");
    const other = await request(server.port, "nordlys.localhost", "/dashboard/organizations/2/quizzes?q=zq", {
      headers: { Cookie: nordlys },
    });
    expect(other.status).toBe(200);
    expect(other.body).not.toContain("Zq 01");
  });
});

describe("the certificate templates list", () => {
  it("searches, filters by kind and use, and sorts by name, courses and when made", async () => {
    expect((await page("certificate-templates", "?q=zt")).rows).toEqual(["Zt A", "Zt B", "Zt C"]);
    const defaults = await page("certificate-templates", "?kind=default");
    expect(defaults.total).toBe("1–1 of 1");
    expect(defaults.rows).toEqual([read<{ name: string }>("select name from certificate_templates where is_default = 1").name]);
    expect((await page("certificate-templates", "?q=zt&kind=other")).total).toBe("1–3 of 3");
    expect((await page("certificate-templates", "?q=zt&use=used")).rows).toEqual(["Zt A", "Zt B"]);
    expect((await page("certificate-templates", "?q=zt&use=unused")).rows).toEqual(["Zt C"]);
    expect((await page("certificate-templates", "?q=zt&sort=name&dir=desc")).rows).toEqual(["Zt C", "Zt B", "Zt A"]);
    const courses = await page("certificate-templates", "?q=zt&sort=courses");
    expect(courses.rows).toEqual(["Zt A", "Zt B", "Zt C"]);
    expect(courses.cells["Zt A"][2]).toBe("2");
    expect((await page("certificate-templates", "?q=zt&sort=courses&dir=asc")).rows).toEqual(["Zt C", "Zt B", "Zt A"]);
    expect((await page("certificate-templates", "?q=zt&sort=created")).rows).toEqual(["Zt B", "Zt C", "Zt A"]);
  });

  it("names a bad filter and links to the issued certificates", async () => {
    const bad = await page("certificate-templates", "?q=zt&kind=fancy&page=x");
    expect(bad.rows).toEqual(["Zt A", "Zt B", "Zt C"]);
    expect(bad.body).toContain('id="templates-list-kind-error"');
    expect(bad.body).toContain(`href="${BASE}/certificates"`);
  });
});

describe("the issued certificates list", () => {
  it("searches by person, e-mail address, course or number, newest first, a page at a time", async () => {
    const first = await page("certificates", "?q=zc");
    expect(first.total).toBe("1–25 of 30");
    expect(first.people.slice(0, 2)).toEqual(zc(30, 29));
    expect((await page("certificates", "?q=zc&page=2")).people).toEqual(zc(5, 4, 3, 2, 1));
    expect((await page("certificates", "?q=Zc+Person+1")).total).toBe("1–10 of 10");
    const byEmail = await page("certificates", `?q=${encodeURIComponent(ids.person7)}`);
    expect(byEmail.people).toEqual(zc(7));
    expect(byEmail.body).toContain(ids.person7);
    expect((await page("certificates", "?q=zc+course+odd&per_page=50")).total).toBe("1–15 of 15");
    expect((await page("certificates", "?q=ZC00-0000-0012")).rows).toEqual(["ZC00-0000-0012"]);
  });

  it("filters by course, state and template", async () => {
    const odd = await page("certificates", `?q=zc&course=${ids.odd}`);
    expect(odd.total).toBe("1–15 of 15");
    expect(odd.people.slice(0, 2)).toEqual(zc(29, 27));
    expect((await page("certificates", "?q=zc&state=revoked")).people).toEqual(zc(30, 20, 10));
    const expired = await page("certificates", "?q=zc&state=expired");
    expect(expired.people).toEqual(zc(3, 2, 1));
    expect(expired.body).toContain('data-state="expired"');
    expect((await page("certificates", "?q=zc&state=valid")).total).toBe("1–24 of 24");
    expect((await page("certificates", `?q=zc&template=${ids.templateA}`)).total).toBe("1–10 of 10");
    expect((await page("certificates", `?q=zc&template=${ids.templateA}&state=valid`)).total).toBe("1–6 of 6");
  });

  it("sorts by when issued, the person and the course", async () => {
    expect((await page("certificates", "?q=zc&sort=issued&dir=asc")).people.slice(0, 2)).toEqual(zc(1, 2));
    expect((await page("certificates", "?q=zc&sort=person&dir=asc")).people.slice(0, 2)).toEqual(zc(1, 2));
    expect((await page("certificates", "?q=zc&sort=person&dir=desc")).people.slice(0, 2)).toEqual(zc(30, 29));
    expect((await page("certificates", "?q=zc&sort=course&dir=asc")).people.slice(0, 2)).toEqual(zc(2, 4));
    expect((await page("certificates", "?q=zc&sort=course&dir=desc")).people.slice(0, 2)).toEqual(zc(29, 27));
  });

  it("names a bad parameter, and shows only the organization's certificates to its admins", async () => {
    const bad = await page("certificates", "?q=zc&course=abc&state=lost");
    expect(bad.total).toBe("1–25 of 30");
    expect(bad.body).toContain('id="certificates-list-course-error"');
    expect(bad.body).toContain('id="certificates-list-state-error"');
    const asLearner = await request(server.port, ORG, `${BASE}/certificates?q=zc`, { headers: { Cookie: learner } });
    expect(asLearner.status).not.toBe(200);
    expect(asLearner.body).not.toContain("Zc Person");
    const own = await request(server.port, "nordlys.localhost", "/dashboard/organizations/2/certificates?q=zc", {
      headers: { Cookie: nordlys },
    });
    expect(own.status).toBe(200);
    expect(own.body).not.toContain("Zc Person");
  });

  it("revokes (a reason required) and restores a certificate, back on the same view", async () => {
    const id = read<{ id: number }>("select id from certificates where public_id = 'ZC00-0000-0011'").id;
    const post = (fields: Record<string, string>) =>
      request(server.port, ORG, `${BASE}/certificates?q=zc&state=valid`, {
        ...form(fields),
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: admin },
      });
    const missing = await post({ intent: "revoke", certificate_id: String(id), reason: " " });
    expect(missing.status).toBe(400);
    const revoked = await post({ intent: "revoke", certificate_id: String(id), reason: "Wrong person" });
    expect(revoked.status).toBe(302);
    expect(revoked.headers.location).toBe(`${BASE}/certificates?q=zc&state=valid`);
    expect((await page("certificates", "?q=zc&state=revoked")).people).toEqual(zc(30, 20, 11, 10));
    expect((await post({ intent: "restore", certificate_id: String(id) })).status).toBe(302);
    expect((await page("certificates", "?q=zc&state=revoked")).people).toEqual(zc(30, 20, 10));
    expect((await post({ intent: "revoke", certificate_id: "999999999", reason: "x" })).status).toBe(404);
  });
});
