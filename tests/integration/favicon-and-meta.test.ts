import path from "node:path";
import Database from "better-sqlite3";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { brandColour } from "~/utils/favicon";

/** Every page's icon and meta description (docs/decisions/034-lighthouse.md; Lighthouse's best practices and SEO). */
let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcess();
});
afterAll(() => server?.stop());

const iconLink = (html: string) => html.match(/<link rel="icon" href="([^"]+)"(?: type="([^"]+)")?/);
const description = (html: string) =>
  html
    .match(/<meta name="description" content="([^"]*)"/)?.[1]
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

function platformDb(sql: string, ...params: unknown[]) {
  const db = new Database(path.join(server.dataDir, "platform.sqlite"));
  try {
    db.pragma("busy_timeout = 5000");
    return db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

describe("icons", () => {
  it("links a monogram in the organization's colour from every page, and answers /favicon.svg and /favicon.ico", async () => {
    for (const [host, name] of [
      ["acme.localhost", "Acme Academy"],
      ["nordlys.localhost", "Nordlys Akademi"],
      ["localhost", "Lectern"],
    ]) {
      const page = await request(server.port, host, "/");
      const link = iconLink(page.body);
      expect(link?.[1]).toMatch(/^\/favicon\.svg\?v=[\w-]{10}$/);
      expect(link?.[2]).toBe("image/svg+xml");
      const svg = await request(server.port, host, link![1]);
      expect(svg.status).toBe(200);
      expect(svg.headers["content-type"]).toMatch(/^image\/svg\+xml/);
      expect(svg.headers["cache-control"]).toContain("immutable");
      expect(svg.body).toContain(`fill="${brandColour(name)}"`);
      expect(svg.body).toContain(`>${name[0]}</text>`);
      const ico = await request(server.port, host, "/favicon.ico");
      expect(ico.status).toBe(200);
      expect(ico.headers["content-type"]).toBe("image/x-icon");
      expect([...ico.raw.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
      const png = await sharp(ico.raw.subarray(ico.raw.readUInt32LE(18))).metadata();
      expect([png.format, png.width]).toEqual(["png", 48]);
    }
    // Other pages link the same icon; an unknown host still gets its 404.
    expect(iconLink((await request(server.port, "acme.localhost", "/auth/login")).body)?.[1]).toMatch(/^\/favicon\.svg\?v=/);
    expect((await request(server.port, "nobody.localhost", "/favicon.ico")).status).toBe(404);
  });

  it("makes the icon from the logo when there is one, and uses an uploaded favicon before either", async () => {
    const tenant = new Database(path.join(server.dataDir, "org-1", "db.sqlite"), { readonly: true });
    const image = tenant.prepare("select id from files where kind = 'image' order by id limit 1").get() as { id: number };
    tenant.close();
    try {
      platformDb("update organizations set logo = ? where id = 1", `file:${image.id}`);
      const link = iconLink((await request(server.port, "acme.localhost", "/categories")).body);
      expect(link?.[1]).toMatch(new RegExp(`^/images/icon/${image.id}/[\\w-]{43}\\?w=32$`));
      const icon = await request(server.port, "acme.localhost", link![1]);
      expect(icon.status).toBe(200);
      const meta = await sharp(icon.raw).metadata();
      expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(["webp", 64, 64, true]);
      const ico = await request(server.port, "acme.localhost", "/favicon.ico");
      expect([ico.status, ico.headers.location]).toEqual([302, link![1]]);

      platformDb("update organizations set favicon = 'https://cdn.example/acme.png' where id = 1");
      expect(iconLink((await request(server.port, "acme.localhost", "/categories")).body)?.[1]).toBe("https://cdn.example/acme.png");
      expect((await request(server.port, "acme.localhost", "/favicon.ico")).headers.location).toBe("https://cdn.example/acme.png");
    } finally {
      platformDb("update organizations set logo = null, favicon = null where id = 1");
    }
  });
});

describe("meta descriptions", () => {
  it("describe every page in the visitor's language, and a course page by the course's own description", async () => {
    expect(description((await request(server.port, "acme.localhost", "/")).body)).toBe(
      "Courses, lessons and quizzes from Acme Academy, to learn at your own pace.",
    );
    expect(description((await request(server.port, "nordlys.localhost", "/categories")).body)).toBe(
      "Kurser, lektioner og quizzer fra Nordlys Akademi, så du kan lære i dit eget tempo.",
    );
    expect(description((await request(server.port, "localhost", "/auth/login")).body)).toBe(
      "Lectern: online courses for organizations and their learners.",
    );
    expect(description((await request(server.port, "acme.localhost", "/auth/login")).body)).toContain("Acme Academy");

    const db = new Database(path.join(server.dataDir, "org-1", "db.sqlite"), { readonly: true });
    const course = db
      .prepare("select id, description from courses where published = 1 and description <> '' order by id limit 1")
      .get() as {
      id: number;
      description: string;
    };
    db.close();
    const page = (await request(server.port, "acme.localhost", `/courses/${course.id}`)).body;
    const text = description(page)!;
    expect(text.length).toBeGreaterThan(20);
    expect(text).not.toMatch(/[<>]/);
    expect(course.description.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ")).toContain(text.replace(/…$/, "").slice(0, 40));
    // One description per page, never the generic one beside the course's.
    expect(page.match(/<meta name="description"/g)).toHaveLength(1);
  });
});
