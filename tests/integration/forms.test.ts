import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm } from "../helpers/auth";
import { multipart, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * Every form is read with conform and its zod schema (app/utils/form.ts): posted without JavaScript, a form
 * with a mistake comes back with its messages translated into the organization's language, and with what was
 * typed still in its fields. Acme (organization 1) speaks English, Nordlys (organization 2) Danish.
 */
const ACME = "acme.localhost";
const NORDLYS = "nordlys.localhost";
let server: InProcessServer;
let acme: string;
let nordlys: string;

beforeAll(async () => {
  server = await startInProcess();
  acme = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
  nordlys = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
});
afterAll(() => server?.stop());

const post = (host: string, path: string, fields: Record<string, string>) =>
  postForm(server, host, path, fields, host === ACME ? acme : nordlys);
const get = (host: string, path: string) => request(server.port, host, path, { headers: { Cookie: host === ACME ? acme : nordlys } });

/** The text of a page's field-error lists. */
function fieldErrors(html: string) {
  return [...html.matchAll(/<div[^>]*class="field-errors"[^>]*>([\s\S]*?)<\/div>/g)].map((m) =>
    m[1]
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
  );
}

describe("forms without JavaScript", () => {
  it("a group with no name: the message in the organization's language, the description kept", async () => {
    const en = await post(ACME, "/dashboard/organizations/1/groups/create", {
      name: "  ",
      description: "Kept description",
      ruleMatch: "any",
    });
    expect(en.status).toBe(400);
    expect(fieldErrors(en.body)).toContain("This field is required.");
    expect(en.body).toContain("Kept description");
    const da = await post(NORDLYS, "/dashboard/organizations/2/groups/create", { name: "", description: "Beholdt" });
    expect(da.status).toBe(400);
    expect(fieldErrors(da.body)).toContain("Feltet skal udfyldes.");
    expect(da.body).toContain("Beholdt");
  });

  it("a name too long names the limit", async () => {
    const res = await post(ACME, "/dashboard/organizations/1/groups/create", { name: "x".repeat(121) });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toContain("Use at most 120 characters.");
  });

  it("a group's rule with no value, and a rule whose operator does not fit its field", async () => {
    const created = await post(ACME, "/dashboard/organizations/1/groups/create", { name: `Rules ${Date.now()}` });
    expect(created.status, created.body.slice(0, 300)).toBe(302);
    const page = created.headers.location!;
    const empty = await post(ACME, page, { intent: "add-rule", kind: "person", field: "email", operator: "contains", value: "" });
    expect(empty.status).toBe(400);
    expect(fieldErrors(empty.body)).toContain("This field is required.");
    const wrong = await post(ACME, page, {
      intent: "add-rule",
      kind: "person",
      field: "created_at",
      operator: "contains",
      value: "kept-value",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('value="kept-value"');
    const saved = await post(ACME, page, { intent: "save", name: "", description: "Still here" });
    expect(saved.status).toBe(400);
    expect(fieldErrors(saved.body)).toContain("This field is required.");
    expect(saved.body).toContain("Still here");
    expect((await get(ACME, page)).status).toBe(200);
  });

  it("the users' settings refuse a language that is not one of the five", async () => {
    const res = await post(ACME, "/dashboard/users/settings", { intent: "save", defaultLanguage: "xx" });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toContain("Choose one of the options.");
  });

  it("categories, carousels and API tokens answer the same way", async () => {
    const category = await post(NORDLYS, "/dashboard/organizations/2/categories", { name: "" });
    expect(category.status).toBe(400);
    expect(fieldErrors(category.body)).toContain("Feltet skal udfyldes.");
    const carousel = await post(ACME, "/dashboard/organizations/1/carousels", { title: "", published: "on" });
    expect(carousel.status).toBe(400);
    expect(fieldErrors(carousel.body)).toContain("This field is required.");
    expect(carousel.body).toMatch(/<input[^>]*type="checkbox"[^>]*name="published"[^>]*checked/);
    const superAdmin = await cookieFor(insertSession(server, "platform", { email: "super@lectern.test", kind: "web" }));
    const token = await postForm(
      server,
      "localhost",
      "/admin/organizations/1/api",
      { intent: "create", name: "Kept token name", days: "400" },
      superAdmin,
    );
    expect(token.status).toBe(400);
    expect(token.body).toContain("This field is required.");
    expect(token.body).toMatch(/Choose a lifetime from 1 to \d+ days\./);
    expect(token.body).toContain('value="Kept token name"');
  });

  it("a course, a lesson and a link keep what was typed; each form shows only its own messages", async () => {
    const base = "/dashboard/organizations/2/courses";
    const course = await post(NORDLYS, `${base}/create`, {
      title: "",
      description: "Beholdt beskrivelse",
      type: "series",
      published: "on",
    });
    expect(course.status).toBe(400);
    expect(fieldErrors(course.body)).toContain("Feltet skal udfyldes.");
    expect(course.body).toContain("Beholdt beskrivelse");
    expect(course.body).toMatch(/<input[^>]*type="checkbox"[^>]*name="published"[^>]*checked/);
    const created = await post(NORDLYS, `${base}/create`, { title: "Formularkursus", type: "series" });
    expect(created.status).toBe(302);
    const page = created.headers.location!;
    const lesson = await post(NORDLYS, page, {
      intent: "add-lesson",
      lesson_title: "Beholdt lektion",
      lesson_kind: "text",
      lesson_video_url: "ikke en adresse",
    });
    expect(lesson.status).toBe(400);
    expect(lesson.body).toContain('value="Beholdt lektion"');
    expect(fieldErrors(lesson.body)).toHaveLength(1);
    const link = await post(NORDLYS, page, { intent: "add-link", link_title: "Beholdt link", link_url: "ftp://example.org" });
    expect(link.status).toBe(400);
    expect(link.body).toContain('value="Beholdt link"');
    expect(fieldErrors(link.body)).toHaveLength(1);
  });

  it("a quiz question keeps its prompt and options and says what is missing", async () => {
    const created = await post(NORDLYS, "/dashboard/organizations/2/quizzes/create", { title: "Formularquiz" });
    expect(created.status).toBe(302);
    const res = await post(NORDLYS, created.headers.location!, {
      intent: "add-question",
      type: "single",
      prompt: "Beholdt spørgsmål",
      option_text_0: "Beholdt svar",
      option_correct_0: "on",
    });
    expect(res.status).toBe(400);
    expect(res.body).toContain("Beholdt spørgsmål");
    expect(res.body).toContain('value="Beholdt svar"');
    expect(fieldErrors(res.body)).toEqual(["Angiv mindst to svarmuligheder."]);
  });

  it("the profile keeps what was typed and names the field too long", async () => {
    const learner = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
    const res = await postForm(server, ACME, "/profile?index", { firstName: "Ada", lastName: "L".repeat(101), language: "" }, learner);
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toContain("Use at most 100 characters.");
    expect(res.body).toContain('value="Ada"');
  });

  it("a certificate template keeps its blocks and names the field out of range", async () => {
    const created = await post(ACME, "/dashboard/organizations/1/certificate-templates", { name: `Formularskabelon ${Date.now()}` });
    expect(created.status, created.body.slice(0, 300)).toBe(302);
    const page = created.headers.location!;
    const fields = {
      intent: "save",
      name: "",
      page_size: "letter",
      orientation: "portrait",
      show_qr: "on",
      block_count: "2",
      block_0_text: "Kept block",
      block_0_x: "500",
      block_0_y: "10",
      block_0_width: "50",
      block_0_size: "12",
      block_0_align: "left",
      block_0_color: "#000000",
    };
    const res = await post(ACME, page, fields);
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual(["This field is required.", "The value must be at most 100."]);
    expect(res.body).toContain("Kept block");
    expect(res.body).toMatch(/<option value="letter" selected/);
    expect(res.body).not.toMatch(/<input[^>]*name="show_logo"[^>]*checked/);
    const da = await post(NORDLYS, "/dashboard/organizations/2/certificate-templates", { name: `Formularskabelon ${Date.now()}` });
    expect(da.status).toBe(302);
    const bad = await post(NORDLYS, da.headers.location!, { ...fields, name: "Beholdt navn", block_0_x: "10", block_0_color: "rød" });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('value="Beholdt navn"');
    expect(fieldErrors(bad.body)).toHaveLength(1);
  });

  it("a user import with a group that is not one keeps the options beside the file", async () => {
    const { body, contentType } = multipart(
      { groupId: "ikke-en-gruppe", sendInvitations: "on" },
      {
        file: {
          name: "folk.csv",
          type: "text/csv",
          data: Buffer.from("first_name,last_name,phone,email\nAnna,Berg,,anna-form@example.com\n"),
        },
      },
    );
    const res = await request(server.port, NORDLYS, "/dashboard/users/import", {
      method: "POST",
      headers: { Cookie: nordlys, "Content-Type": contentType, "Sec-Fetch-Site": "same-origin" },
      body,
    });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual(["Vælg en af mulighederne."]);
    expect(res.body).toMatch(/<input[^>]*type="checkbox"[^>]*name="sendInvitations"[^>]*checked/);
  });

  it("an SSO provider keeps what was typed but the secret, added and edited", async () => {
    const fields = {
      intent: "save",
      kind: "oauth2",
      label: "Beholdt udbyder",
      slug: `beholdt-${Date.now()}`,
      clientId: "beholdt-klient",
      clientSecret: "hemmelig-vaerdi-123",
      authorizationUrl: "https://idp.example/auth",
      tokenUrl: "ikke en adresse",
      createUsers: "on",
    };
    const res = await post(NORDLYS, "/dashboard/organizations/2/sso", fields);
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual(expect.arrayContaining(["Feltet skal udfyldes."]));
    expect(fieldErrors(res.body).length).toBe(2);
    expect(res.body).toContain('value="Beholdt udbyder"');
    expect(res.body).toContain('value="https://idp.example/auth"');
    expect(res.body).toMatch(/<option value="oauth2" selected/);
    expect(res.body).not.toContain("hemmelig-vaerdi-123");
    const created = await post(NORDLYS, "/dashboard/organizations/2/sso", {
      ...fields,
      tokenUrl: "https://idp.example/token",
      userinfoUrl: "https://idp.example/me",
    });
    expect(created.status, created.body.slice(0, 300)).toBe(302);
    const list = await get(NORDLYS, "/dashboard/organizations/2/sso");
    const id = [...list.body.matchAll(/\/sso\/(\d+)"/g)].map((m) => Number(m[1])).sort((a, b) => b - a)[0];
    const edit = await post(NORDLYS, `/dashboard/organizations/2/sso/${id}`, {
      ...fields,
      label: "",
      clientSecret: "",
      tokenUrl: "https://idp.example/token",
      userinfoUrl: "https://idp.example/me",
    });
    expect(edit.status).toBe(400);
    expect(fieldErrors(edit.body)).toEqual(["Feltet skal udfyldes."]);
    expect(edit.body).toContain('value="beholdt-klient"');
  });

  it("the leaderboard's points, level, badge and reset forms keep what was typed", async () => {
    const tab = "/dashboard/organizations/2/leaderboard";
    const points = await post(NORDLYS, tab, { intent: "activity", kind: "lesson_completed", points: "-5", dailyCap: "7", enabled: "on" });
    expect(points.status).toBe(400);
    expect(fieldErrors(points.body)).toEqual(["Værdien skal være mindst 0."]);
    expect(points.body).toMatch(/id="cap-lesson_completed"[^>]*value="7"|value="7"[^>]*id="cap-lesson_completed"/);
    const level = await post(NORDLYS, tab, { intent: "level", name: "Beholdt niveau", threshold: "ti", color: "#123456" });
    expect(level.status).toBe(400);
    expect(fieldErrors(level.body)).toEqual(["Indtast et tal."]);
    expect(level.body).toContain('value="Beholdt niveau"');
    const badge = await post(NORDLYS, tab, {
      intent: "badge",
      name: "",
      description: "Beholdt beskrivelse",
      rule: "bookmarks",
      threshold: "3",
      color: "#000000",
    });
    expect(badge.status).toBe(400);
    expect(fieldErrors(badge.body)).toEqual(["Feltet skal udfyldes."]);
    expect(badge.body).toContain('value="Beholdt beskrivelse"');
    const reset = await post(NORDLYS, tab, { intent: "reset", period: "decade" });
    expect(reset.status).toBe(400);
    expect(fieldErrors(reset.body)).toEqual(["Vælg en af mulighederne."]);
  });

  it("the sign-in pages answer in the organization's language, with their own messages, and keep the e-mail", async () => {
    const login = await postForm(server, NORDLYS, "/auth/login", { email: "ikke-en-adresse", password: "x".repeat(1025) });
    expect(login.status).toBe(400);
    expect(fieldErrors(login.body)).toEqual(["Indtast en gyldig e-mailadresse.", "Brug højst 1024 tegn."]);
    expect(login.body).toContain('value="ikke-en-adresse"');
    expect(login.body).not.toContain("x".repeat(1025));
    const empty = await postForm(server, NORDLYS, "/auth/login", {});
    expect(empty.status).toBe(400);
    expect(fieldErrors(empty.body)).toEqual(["Feltet skal udfyldes.", "Feltet skal udfyldes."]);
    const reset = await postForm(server, NORDLYS, "/auth/reset", { email: "stadig-ikke-en-adresse" });
    expect(reset.status).toBe(400);
    expect(fieldErrors(reset.body)).toEqual(["Indtast en gyldig e-mailadresse."]);
    expect(reset.body).toContain('value="stadig-ikke-en-adresse"');
  });
});
