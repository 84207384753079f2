import { afterAll, beforeAll, describe, expect, it } from "vitest";
import da from "../../locales/da/certificates.json";
import { api } from "../helpers/auth";
import { request } from "../helpers/http";
import { pdfText } from "../helpers/pdf";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Certificates (issue 12) against the real server: issued once on completing a course (also under 50
 * concurrent completions), rendered to PDF by the job runner through Chromium, downloaded through a signed
 * address, verified publicly on the organization's own host only, revoked; another learner gets 404.
 */
let server: InProcessServer;
let admin: string;
let learner: string;
let other: string;
const ORG = "nordlys.localhost";
// Nordlys speaks Danish: pages show its texts.
const T = da.certificates;
const NAME = { first: "Łucja Ærø-Ødegård", last: "Åström 山田" };

beforeAll(async () => {
  server = await startInProcess();
  execTenant(server, 2, "insert into users (email, first_name, role) values ('other@nordlys.test', 'Olga', 'learner')");
  execTenant(server, 2, "update users set first_name = ?, last_name = ? where email = 'learner@nordlys.test'", NAME.first, NAME.last);
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  learner = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
  other = insertSession(server, { organizationId: 2 }, { email: "other@nordlys.test", kind: "api" });
});
afterAll(() => server?.stop());

const call = (method: string, p: string, body?: unknown, token = admin) => api(server, ORG, method, p, { token, body });

async function courseWithLessons(fields: Record<string, unknown>, count = 2) {
  const course = (await call("POST", "courses", { type: "series", published: true, ...fields })).json().payload;
  const lessons: number[] = [];
  for (let i = 0; i < count; i++)
    lessons.push((await call("POST", "lessons", { course_id: course.id, title: `L${i}`, kind: "text" })).json().payload.id);
  return { id: course.id as number, lessons };
}

async function until<T>(what: () => Promise<T | undefined>, ms = 40_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await what();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 300));
  }
}

let certificate: { id: number; certificate_id: string; verification_url: string };
const courseTitle = "Førstehjælp for ledere";

describe("issuing", () => {
  it("issues one certificate with a stable id when the last lesson is completed, even 50 times at once", async () => {
    const template = await call("POST", "certificates/templates", {
      name: "Ledelse",
      layout: { page_size: "a4", orientation: "landscape" },
    });
    expect(template.status, template.body).toBe(201);
    const { id, lessons } = await courseWithLessons({ title: courseTitle, allow_certificates: true });
    expect((await call("PUT", `certificates/templates/${template.json().payload.id}`, { course_ids: [id] })).status).toBe(200);

    await call("POST", "lesson-progresses", { lesson_id: lessons[0], completed: true }, learner);
    expect(
      (await call("GET", "certificates", undefined, learner)).json().payload.data.filter((c: { course_id: number }) => c.course_id === id),
    ).toEqual([]);
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => call("POST", "lesson-progresses", { lesson_id: lessons[1], completed: true }, learner)),
    );
    expect(replies.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    const mine = (await call("GET", "certificates", undefined, learner))
      .json()
      .payload.data.filter((c: { course_id: number }) => c.course_id === id);
    expect(mine).toHaveLength(1);
    certificate = mine[0];
    expect(certificate.certificate_id).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(mine[0]).toMatchObject({ learner_name: `${NAME.first} ${NAME.last}`, course_title: courseTitle, revoked: false, score: null });
    expect(certificate.verification_url).toBe(`http://${ORG}:${server.port}/certificates/verify/${certificate.certificate_id}`);
    // Completing again (another path, a retry) changes nothing.
    await call("POST", "lesson-progresses", { lesson_id: lessons[1], completed: true }, learner);
    expect((await call("GET", `certificates/${certificate.id}`, undefined, learner)).json().payload.certificate_id).toBe(
      certificate.certificate_id,
    );
  });

  it("issues none for a course without certificates", async () => {
    const { id, lessons } = await courseWithLessons({ title: "Uden bevis" }, 1);
    await call("POST", "lesson-progresses", { lesson_id: lessons[0], completed: true }, learner);
    const all = (await call("GET", "certificates", undefined, learner)).json().payload.data;
    expect(all.some((c: { course_id: number }) => c.course_id === id)).toBe(false);
  });
});

describe("the PDF", () => {
  it("is prepared by a job, then downloaded through a signed address, with names in every script", async () => {
    const first = await call("GET", `certificates/${certificate.id}/preview`, undefined, learner);
    expect([200, 202]).toContain(first.status);
    const ready = await until(async () => {
      const r = await call("GET", `certificates/${certificate.id}/preview`, undefined, learner);
      return r.status === 200 ? r.json().payload : undefined;
    });
    const url = new URL(ready.url);
    expect(url.host).toBe(`${ORG}:${server.port}`);
    const pdf = await request(server.port, ORG, url.pathname);
    expect(pdf.status).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    const text = pdfText(pdf.raw);
    for (const part of ["Łucja", "Ærø-Ødegård", "Åström", "山田", courseTitle, certificate.verification_url, certificate.certificate_id]) {
      expect(text, `PDF text:\n${text}`).toContain(part);
    }
    // Cached: asking again gives the same file, no new job.
    const again = (await call("GET", `certificates/${certificate.id}/preview`, undefined, learner)).json().payload;
    expect(new URL(again.url).pathname.split("/")[2]).toBe(url.pathname.split("/")[2]);
  });

  it("keeps its look when the template changes later (the layout was snapshot at issue)", async () => {
    const templates = (await call("GET", "certificates/templates")).json().payload.data;
    const ledelse = templates.find((t: { name: string }) => t.name === "Ledelse");
    await call("PUT", `certificates/templates/${ledelse.id}`, {
      layout: {
        blocks: [{ text: "NEW LOOK {learner_name}", x: 0, y: 10, width: 100, size: 20, align: "center", bold: false, color: "#000000" }],
      },
    });
    // Re-render this certificate from scratch: it still has its original words.
    execTenant(server, 2, "update certificates set pdf_file_id = null where id = ?", certificate.id);
    const ready = await until(async () => {
      const r = await call("GET", `certificates/${certificate.id}/preview`, undefined, learner);
      return r.status === 200 ? r.json().payload : undefined;
    });
    const text = pdfText((await request(server.port, ORG, new URL(ready.url).pathname)).raw);
    expect(text).not.toContain("NEW LOOK");
    expect(text).toContain("Åström");
  });

  it("shows a being-prepared page that refreshes itself, then redirects to the file (pages, no JavaScript)", async () => {
    const cookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
    execTenant(server, 2, "update certificates set pdf_file_id = null where id = ?", certificate.id);
    const page = await request(server.port, ORG, `/profile/certificates/${certificate.id}`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<meta http-equiv="refresh" content="2"/);
    expect(page.body).toContain(T.learner.preparing);
    const done = await until(async () => {
      const r = await request(server.port, ORG, `/profile/certificates/${certificate.id}`, { headers: { Cookie: cookie } });
      return r.status === 302 ? r : undefined;
    });
    expect(String(done.headers.location)).toMatch(/^\/files\/\d+\//);
    const list = await request(server.port, ORG, "/profile/certificates", { headers: { Cookie: cookie } });
    expect(list.body).toContain(courseTitle);
    expect(list.body).toContain(certificate.verification_url);
  });
});

describe("another learner", () => {
  it("gets 404 for someone else's certificate on every private route and call", async () => {
    expect((await call("GET", `certificates/${certificate.id}`, undefined, other)).status).toBe(404);
    expect((await call("GET", `certificates/${certificate.id}/preview`, undefined, other)).status).toBe(404);
    expect((await call("GET", "certificates", undefined, other)).json().payload.data).toEqual([]);
    expect((await call("GET", "certificates?scope=all", undefined, other)).json().payload.data).toEqual([]);
    expect((await call("PUT", `certificates/${certificate.id}`, { revoked: true, reason: "x" }, other)).status).toBe(403);
    const cookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "other@nordlys.test", kind: "web" }));
    expect((await request(server.port, ORG, `/profile/certificates/${certificate.id}`, { headers: { Cookie: cookie } })).status).toBe(404);
    const list = await request(server.port, ORG, "/profile/certificates", { headers: { Cookie: cookie } });
    expect(list.body).not.toContain(certificate.certificate_id);
  });
});

describe("the public verification page", () => {
  const path = () => `/certificates/verify/${certificate.certificate_id}`;

  it("confirms the certificate to anyone, showing only name, course, organization, date and status", async () => {
    const page = await request(server.port, ORG, path());
    expect(page.status).toBe(200);
    expect(page.body).toContain("Åström 山田");
    expect(page.body).toContain(courseTitle);
    expect(page.body).toContain("Nordlys Akademi");
    expect(page.body).not.toContain("learner@nordlys.test");
    // Case does not matter when typing an id.
    expect((await request(server.port, ORG, path().toLowerCase())).status).toBe(200);
  });

  it("says plainly that an unknown id does not exist, and knows nothing of another organization's", async () => {
    const missing = await request(server.port, ORG, "/certificates/verify/0000-0000-0000");
    expect(missing.status).toBe(404);
    expect(missing.body).toContain(T.verify.missing);
    expect((await request(server.port, "acme.localhost", path())).status).toBe(404);
    expect((await request(server.port, "localhost", path())).status).toBe(404);
  });

  it("shows a revoked certificate as revoked", async () => {
    expect((await call("PUT", `certificates/${certificate.id}`, { revoked: true }, admin)).status).toBe(422);
    const revoked = await call("PUT", `certificates/${certificate.id}`, { revoked: true, reason: "Issued in error" }, admin);
    expect(revoked.json().payload).toMatchObject({ revoked: true, revoked_reason: "Issued in error" });
    const page = await request(server.port, ORG, path());
    expect(page.body).toContain(T.verify.revoked);
    expect(page.body).not.toContain("Issued in error");
    await call("PUT", `certificates/${certificate.id}`, { revoked: false }, admin);
    expect((await request(server.port, ORG, path())).body).toContain(T.verify.valid);
  });
});

describe("templates", () => {
  it("refuse bad input with clear errors and change nothing", async () => {
    const before = (await call("GET", "certificates/templates")).json().payload.meta.total;
    const bad = await call("POST", "certificates/templates", {
      name: "X",
      layout: { blocks: [{ text: "a", x: 500, y: 0, width: 10, size: 12, color: "red;background:url(x)" }] },
    });
    expect(bad.status).toBe(422);
    expect((await call("POST", "certificates/templates", { name: "X", layout: { background_file_id: 999999 } })).status).toBe(422);
    expect((await call("GET", "certificates/templates")).json().payload.meta.total).toBe(before);
  });

  it("preview as an image through /api", async () => {
    const templates = (await call("GET", "certificates/templates")).json().payload.data;
    const preview = await call("GET", `certificates/templates/preview?template_id=${templates[0].id}`);
    expect(preview.status, preview.body).toBe(200);
    expect(preview.json().payload.image).toMatch(/^data:image\/png;base64,iVBOR/);
  });
});
