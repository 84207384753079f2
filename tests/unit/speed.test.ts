import fs from "node:fs";
import { anonymousViewer, type Viewer } from "../../app/access/viewer";
import { capabilitiesOf } from "../../app/utils/capabilities";
import type { User } from "../../db/tenant";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTenantDatabase, openTenantDatabase } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { createCourse } from "../../app/models/course.server";
import { search } from "../../app/models/search.server";
import { recentCourseCards } from "../../app/models/browse.server";
import { categories, courses } from "../../db/tenant";
import { defaultPoolSize, tenantDatabaseFile } from "../../db/tenant-pool";
import { richTextToPlain, sanitizeRichText } from "../../app/utils/sanitize.server";
import { subscribeLearningEvents } from "../../app/models/subscribers.server";

// The models publish learning events; what reacts to them subscribes at start-up, as the server does.
subscribeLearningEvents();

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-speed-"));
  createTenantDatabase(tenantDatabaseFile(dir, 1));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Viewers for the models (app/access/viewer.ts): a visitor, an editor who previews drafts, a learner. */
const anyone = anonymousViewer(null, null, "en");
const editor: Viewer = { ...anyone, via: "cookie", role: "admin", capabilities: capabilitiesOf("admin") };
const learner = (id: number): Viewer => ({
  ...anyone,
  via: "cookie",
  person: { id } as User,
  role: "learner",
  capabilities: capabilitiesOf("learner"),
});

describe("search results kept while the index and publication are unchanged (db/content-cache.ts)", () => {
  it("are the same after unrelated writes, and new after any change to what they show", () => {
    const db = openTenantDatabase(tenantDatabaseFile(dir, 1));
    const other = openTenantDatabase(tenantDatabaseFile(dir, 1));
    const river = createCourse(db, { title: "River safety", description: "A course.", type: "series", published: true, position: 1 });
    createCourse(db, { title: "Mountain river", description: "Draft.", type: "series", published: false, position: 2 });
    const titles = () => search(db, anyone, "river").items.map((h) => h.title);
    expect(titles()).toEqual(["River safety"]);
    db.insert(categories).values({ name: "unrelated" }).run(); // a write the result does not depend on
    expect(search(db, anyone, "river").items[0]).toBe(search(db, anyone, "river").items[0]); // kept
    expect(search(db, editor, "river").total).toBe(2);
    db.update(courses).set({ published: false }).where(eq(courses.id, river.id)).run();
    expect(search(db, anyone, "river")).toEqual({ items: [], total: 0 });
    other.update(courses).set({ published: true }).where(eq(courses.id, river.id)).run(); // another connection
    expect(titles()).toEqual(["River safety"]);
    other.update(courses).set({ title: "Lake safety" }).where(eq(courses.id, river.id)).run();
    expect(titles()).toEqual([]);
    expect(search(db, anyone, "lake").items.map((h) => h.title)).toEqual(["Lake safety"]);
    db.transaction((tx) => {
      tx.update(courses).set({ title: "River again" }).where(eq(courses.id, river.id)).run();
      expect(search(tx, anyone, "river").items.map((h) => h.title)).toEqual(["River again"]); // inside the transaction
    });
    expect(titles()).toEqual(["River again"]);
    db.$client.close();
    other.$client.close();
  });
});

describe("queries built once per connection", () => {
  it("are shared by the connection and its transactions, not across connections", () => {
    const a = openTenantDatabase(tenantDatabaseFile(dir, 1));
    const b = openTenantDatabase(tenantDatabaseFile(dir, 1));
    const build = (db: typeof a) => () =>
      db
        .select()
        .from(categories)
        .where(eq(categories.name, sql.placeholder("name")))
        .prepare();
    const query = preparedOnce(a, "test.byName", build(a));
    expect(preparedOnce(a, "test.byName", build(a))).toBe(query);
    a.transaction((tx) => expect(preparedOnce(tx, "test.byName", build(a))).toBe(query));
    expect(preparedOnce(b, "test.byName", build(b))).not.toBe(query);
    a.insert(categories).values({ name: "x" }).run();
    expect(query.get({ name: "x" })?.name).toBe("x");
    expect(query.get({ name: "y" })).toBeUndefined();
    a.$client.close();
    b.$client.close();
  });
});

describe("the tenant pool's default size", () => {
  it("fits the open-file limit (three files a handle) and the memory budget (TENANT_POOL_MB, at most a quarter of memory)", () => {
    // 64 MiB at 2.5 MiB a handle (2 MiB page cache, 0.5 MiB overhead).
    expect(defaultPoolSize({ fileLimit: 20_000, memoryBytes: 1024 ** 4 })).toBe(25);
    expect(defaultPoolSize({ fileLimit: 20_000, memoryBytes: 1024 ** 4, budgetMiB: 4096 })).toBe(1638);
    expect(defaultPoolSize({ fileLimit: 1024, memoryBytes: 1024 ** 4, budgetMiB: 1_000_000 })).toBe(256);
    // A quarter of 1 GiB is 256 MiB: the budget of 1,000 MiB is cut to it.
    expect(defaultPoolSize({ fileLimit: 1 << 20, memoryBytes: 1024 ** 3, budgetMiB: 1000 })).toBe(102);
    expect(defaultPoolSize({ fileLimit: 300, memoryBytes: 1024 ** 3 })).toBe(16);
  });
});

describe("rich text", () => {
  it("is sanitised the same way on every call", () => {
    const html = '<p onclick="x()">Hi <a href="javascript:alert(1)">there</a><script>bad()</script></p>';
    const once = sanitizeRichText(html);
    expect(once).not.toMatch(/onclick|javascript|script/);
    expect(sanitizeRichText(html)).toBe(once);
    expect(richTextToPlain("<p>A &amp; B</p>")).toBe("A & B");
    expect(richTextToPlain("<p>A &amp; B</p>")).toBe("A & B");
  });
});

describe("card rows kept per connection (app/models/browse.server.ts)", () => {
  it("gives every recent course's card when the kept rows are started again mid-call", () => {
    const db = openTenantDatabase(tenantDatabaseFile(dir, 1));
    const sqlite = db.$client;
    sqlite.transaction(() => {
      const course = sqlite.prepare("insert into courses (title, description, type, published, position) values (?, '', 'series', 1, ?)");
      const lesson = sqlite.prepare("insert into lessons (course_id, title, kind, body, position) values (?, 'Lesson', 'text', '', 0)");
      for (let i = 1; i <= 2_010; i++) {
        course.run(`Course ${i}`, i);
        lesson.run(i);
      }
      const user = sqlite.prepare("insert into users (email, first_name, last_name, role) values (?, 'L', ?, 'learner')");
      for (let u = 1; u <= 101; u++) user.run(`l${u}@example.test`, String(u));
      const seen = sqlite.prepare(
        "insert into lesson_progress (user_id, lesson_id, course_id, position_seconds, watched_seconds) values (?, ?, ?, 1, 1)",
      );
      // Learners 1-100 have seen 20 courses each (2,000 in all); learner 101 ten of learner 1's and ten new.
      for (let u = 1; u <= 100; u++) for (let k = 1; k <= 20; k++) seen.run(u, (u - 1) * 20 + k, (u - 1) * 20 + k);
      for (let k = 1; k <= 10; k++) seen.run(101, k, k);
      for (let k = 2_001; k <= 2_010; k++) seen.run(101, k, k);
    })();
    for (let u = 1; u <= 100; u++) expect(recentCourseCards(db, learner(u), 20)).toHaveLength(20);
    const cards = recentCourseCards(db, learner(101), 20);
    expect(cards.map((c) => c.id).sort((a, b) => a - b)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => i + 1),
      ...Array.from({ length: 10 }, (_, i) => 2_001 + i),
    ]);
    sqlite.close();
  });
});
