import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, postForm } from "../helpers/auth";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/** Issue 18: `/courses/{id}/lessons` opens the next lesson; the course page and the player without JavaScript. */
let server: InProcessServer;
let admin: string;
let learnerApi: string;
let learner: string;
const ORG = "nordlys.localhost";

beforeAll(async () => {
  server = await startInProcess();
  execTenant(server, 2, "insert into users (email, first_name, role) values ('seer@nordlys.test', 'Sigrid', 'learner')");
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  learnerApi = insertSession(server, { organizationId: 2 }, { email: "seer@nordlys.test", kind: "api" });
  learner = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "seer@nordlys.test", kind: "web" }));
});
afterAll(() => server?.stop());

const call = (method: string, p: string, body?: unknown, token = admin) => api(server, ORG, method, p, { token, body });
const get = (p: string, cookie?: string) => request(server.port, ORG, p, { headers: cookie ? { Cookie: cookie } : {} });

async function series(
  title: string,
  lessons: { title: string; kind?: string; duration_seconds?: number; video_url?: string }[],
  fields: Record<string, unknown> = {},
) {
  const course = (await call("POST", "courses", { title, type: "series", published: true, ...fields })).json().payload;
  const ids: number[] = [];
  for (const l of lessons) {
    const body = { course_id: course.id, kind: "text", body: `<p>${l.title} tekst</p>`, ...l };
    ids.push((await call("POST", "lessons", body)).json().payload.id);
  }
  return { id: course.id as number, lessons: ids };
}

describe("/courses/{id}/lessons", () => {
  it("opens the first lesson not completed, in order, and the first once all are done", async () => {
    const { id, lessons } = await series("Videre", [{ title: "Et" }, { title: "To" }, { title: "Tre" }]);
    const visitor = await get(`/courses/${id}/lessons`);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.location).toBe(`/courses/${id}/lessons/${lessons[0]}`);

    await call("POST", "lesson-progresses", { lesson_id: lessons[0], completed: true }, learnerApi);
    expect((await get(`/courses/${id}/lessons`, learner)).headers.location).toBe(`/courses/${id}/lessons/${lessons[1]}`);
    // Out of order: the second done, the first not — the first is next.
    await call("POST", "lesson-progresses", { lesson_id: lessons[2], completed: true }, learnerApi);
    expect((await get(`/courses/${id}/lessons/`, learner)).headers.location).toBe(`/courses/${id}/lessons/${lessons[1]}`);
    await call("POST", "lesson-progresses", { lesson_id: lessons[1], completed: true }, learnerApi);
    expect((await get(`/courses/${id}/lessons`, learner)).headers.location).toBe(`/courses/${id}/lessons/${lessons[0]}`);
  });

  it("sends a course without lessons back to its page, and answers 404 for unknown or unpublished courses", async () => {
    const empty = await series("Tom", []);
    const res = await get(`/courses/${empty.id}/lessons`, learner);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/courses/${empty.id}`);
    expect((await get("/courses/999999/lessons", learner)).status).toBe(404);
    expect((await get("/courses/abc/lessons", learner)).status).toBe(404);
    const draft = await series("Kladde", [{ title: "Hemmelig" }], { published: false });
    expect((await get(`/courses/${draft.id}/lessons`, learner)).status).toBe(404);
  });
});

describe("the course page", () => {
  it("shows the episodes with their length and the learner's state, and the play button goes to the next one", async () => {
    const { id, lessons } = await series("Serien", [
      { title: "Første afsnit", kind: "video", duration_seconds: 600, video_url: "https://video.example/1.mp4" },
      { title: "Andet afsnit", kind: "video", duration_seconds: 300, video_url: "https://video.example/2.mp4" },
      { title: "Tredje afsnit" },
    ]);
    await call("POST", "lesson-progresses", { lesson_id: lessons[0], completed: true }, learnerApi);
    await call("POST", "lesson-progresses", { lesson_id: lessons[1], position_seconds: 150, watched_seconds: 0 }, learnerApi);
    const page = (await get(`/courses/${id}`, learner)).body;
    const state = (title: string) => new RegExp(`data-state="([a-z_]+)"[^>]*data-lesson="${title}"`).exec(page)?.[1];
    // The one lesson state (app/models/lesson-state.server.ts, issue 45).
    expect(state("Første afsnit")).toBe("completed");
    expect(state("Andet afsnit")).toBe("in_progress");
    expect(state("Tredje afsnit")).toBe("not_started");
    expect(page).toContain("50 % set");
    expect(page).toContain("10:00");
    expect(page).toContain("15 min.");
    expect(/<a[^>]*data-testid="start"[^>]*>/.exec(page)?.[0]).toContain(`href="/courses/${id}/lessons/${lessons[1]}"`);
    expect(page).toContain("1 af 3 afsnit gennemført");
  });
});

describe("the player without JavaScript", () => {
  // Pages are rendered to a string first (app/utils/render-page.server.tsx); react-player draws inside a
  // Suspense boundary of its own, which must come out whole, the same on the first render as on later ones.
  it("draws the whole player page, the same on every render", async () => {
    const { id, lessons } = await series("Første afspilning", [
      { title: "Klip", kind: "video", duration_seconds: 60, video_url: "https://video.example/first.mp4" },
    ]);
    execTenant(server, 2, "update users set player_instructions_shown_at = unixepoch() where email = 'seer@nordlys.test'");
    const pages = [];
    for (let i = 0; i < 3; i++) {
      const reply = await get(`/courses/${id}/lessons/${lessons[0]}`, learner);
      expect(reply.status).toBe(200);
      expect(reply.body.startsWith("<!DOCTYPE html><html")).toBe(true);
      expect(reply.body).toMatch(/<video[^>]*controls/);
      expect(reply.body).toContain("first.mp4");
      expect(reply.body).not.toContain("<!--$!-->");
      pages.push(reply.body.replace(/nonce="[^"]+"/g, "").replace(/"cspNonce":"[^"]+"/g, ""));
    }
    expect(pages[1]).toBe(pages[0]);
    expect(pages[2]).toBe(pages[0]);
  });

  it("shows the video with native controls, the text, the episodes, and a form to mark it complete", async () => {
    const { id, lessons } = await series("Afspiller", [
      { title: "Klip", kind: "video", duration_seconds: 60, video_url: "https://video.example/klip.mp4" },
      { title: "Efter klippet" },
    ]);
    execTenant(server, 2, "update users set player_instructions_shown_at = unixepoch() where email = 'seer@nordlys.test'");
    const page = (await get(`/courses/${id}/lessons/${lessons[0]}`, learner)).body;
    expect(page).toMatch(/<video[^>]*controls/);
    expect(page).toContain("klip.mp4");
    expect(page).toContain('data-testid="episodes"');
    expect(page).toContain('name="intent" value="complete"');
    expect(page).not.toContain('data-testid="instructions"');
    // The shortcuts link opens the instructions on the server.
    const help = (await get(`/courses/${id}/lessons/${lessons[0]}?instructions=1`, learner)).body;
    expect(help).toContain('data-testid="instructions"');
    expect(help).toContain("<kbd>J</kbd>");
    const done = await postForm(server, ORG, `/courses/${id}/lessons/${lessons[0]}`, { intent: "complete" }, learner);
    expect(done.headers.location).toBe(`/courses/${id}/lessons/${lessons[1]}`);
  });

  it("shows the instructions the first time, and the form records them as shown", async () => {
    const { id, lessons } = await series("Første gang", [
      { title: "Video", kind: "video", duration_seconds: 30, video_url: "https://video.example/v.mp4" },
    ]);
    execTenant(server, 2, "update users set player_instructions_shown_at = null where email = 'seer@nordlys.test'");
    const path = `/courses/${id}/lessons/${lessons[0]}`;
    const page = (await get(path, learner)).body;
    expect(page).toContain('data-testid="instructions"');
    expect(page).toContain(`name="redirectTo" value="${path}"`);
    const shown = await postForm(server, ORG, "/api/player-window", { redirectTo: path }, learner);
    expect(shown.status).toBe(302);
    expect(shown.headers.location).toBe(path);
    expect((await get(path, learner)).body).not.toContain('data-testid="instructions"');
  });
});
