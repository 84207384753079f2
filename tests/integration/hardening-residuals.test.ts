import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, tenantDb } from "../helpers/auth";
import { request } from "../helpers/http";
import { errorLines, startServer, type RunningServer } from "../helpers/server";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * Issue 44's probe, items 2 and 7 (docs/security.md): the quiz step's own redirect, `?_routes=` on /api, and a
 * full certificate render queue. Each test failed on the main the probe ran on. The server has one renderer and
 * no room to wait, so a second preview asked while the first is drawn finds the queue full.
 */
const ACME = "acme.localhost";
const bypasses = ["/.//evil.example", "/%2e//evil.example", "/a/..//evil.example", "//evil.example", "/\\evil.example"];

let server: RunningServer;
let adminCookie: string;
let adminToken: string;
let quizId: number;
beforeAll(async () => {
  server = await startServer({ env: { CERTIFICATE_RENDERERS: "1", CERTIFICATE_RENDER_QUEUE: "0" } });
  adminCookie = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
  adminToken = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
  const db = tenantDb(server, 1);
  quizId = (db.prepare("select id from quizzes order by id limit 1").get() as { id: number }).id;
  db.close();
});
afterAll(() => server?.stop());

describe("item 2: the quiz step's redirect stays on the site", () => {
  // The probe: `POST /quizzes/{id}` with `returnTo=/.//evil.com` answered `302 Location: //evil.com`.
  it.each(bypasses)("returnTo=%s goes back to the quiz", async (returnTo) => {
    const res = await postForm(server, ACME, `/quizzes/${quizId}`, { intent: "start", returnTo }, adminCookie);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/quizzes/${quizId}`);
  });

  it("a returnTo on the site is kept, dot segments resolved", async () => {
    const res = await postForm(server, ACME, `/quizzes/${quizId}`, { intent: "start", returnTo: "/courses/../profile" }, adminCookie);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/profile");
  });
});

describe("item 7: ?_routes= on /api is refused like ?_data=", () => {
  it.each(["/api/courses?_routes=root", "/api/courses?page=1&_routes=root", "/API/courses?_routes"])(
    "%s → 400 in the envelope",
    async (path) => {
      const res = await request(server.port, ACME, path, { headers: { Cookie: adminCookie } });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ error: true, status: 400 });
      expect(res.body).not.toContain("capabilities");
    },
  );
});

describe("item 7: a full certificate render queue", () => {
  it("answers a preview it cannot take with 503 and Retry-After, in the envelope, and draws the one it took", async () => {
    const template = (() => {
      const db = tenantDb(server, 1);
      try {
        return (db.prepare("select id from certificate_templates order by id limit 1").get() as { id: number }).id;
      } finally {
        db.close();
      }
    })();
    const preview = () =>
      request(server.port, ACME, `/api/certificates/templates/preview?template_id=${template}`, {
        headers: { Authorization: `Bearer ${adminToken}`, "Accept-Language": "en" },
      });
    const replies = await Promise.all([preview(), preview(), preview()]);
    const refused = replies.filter((r) => r.status === 503);
    expect(replies.map((r) => r.status).sort()).toContain(200);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const res of refused) {
      expect(res.headers["retry-after"]).toBe("5");
      expect(res.json()).toMatchObject({
        error: true,
        status: 503,
        payload: { code: "render_timeout", message: "The certificate could not be made right now. Try again in a moment." },
      });
    }
  });
});

describe("a form post to /api/player-window that cannot be read", () => {
  // Found by item 4's walk: a broken multipart body was a 500, logged as an error.
  it("is a 422 in the envelope, marks nothing, and logs no error; a readable one goes back to its page", async () => {
    const learner = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
    const headers = { Cookie: learner, Origin: `http://${ACME}` };
    const before = server.output().length;
    const broken = await request(server.port, ACME, "/api/player-window", {
      method: "POST",
      headers: { ...headers, "Content-Type": "multipart/form-data; boundary=xyz" },
      body: '--abc\r\nContent-Disposition: form-data; name="redirectTo"\r\n\r\n/courses\r\n',
    });
    expect(broken.status).toBe(422);
    expect(broken.json()).toMatchObject({ error: true, status: 422, payload: { code: "invalid_body" } });
    expect(errorLines(server.output().slice(before))).toEqual([]);
    const readable = await postForm(server, ACME, "/api/player-window", { redirectTo: "/.//evil.example" }, learner);
    expect(readable.status).toBe(302);
    expect(readable.headers.location).toBe("/");
  });
});
