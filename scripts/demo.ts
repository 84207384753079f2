import { createCourse } from "../app/models/course.server";
import { subscribeLearningEvents } from "../app/models/subscribers.server";
import { createOrganization, listOrganizations } from "../app/models/organization.server";
import { createSuperAdmin, createUser } from "../app/models/user.server";
import { eq } from "drizzle-orm";
import { organizations, superAdmins } from "../db/platform";
import { categories, courses, type CourseType } from "../db/tenant";
import type { Platform } from "../server/platform";
import { CATALOG } from "./demo/catalog";
import { seedCertificatesDemo } from "./demo/certificates";
import { seedContentListsDemo } from "./demo/content-lists";
import { seedContent } from "./demo/content";
import { seedHistory } from "./demo/history";
import { seedScormDemo } from "./demo/scorm";
import { seedPackagesDemo } from "./demo/packages";
import { seedPathAssignmentsDemo, seedPathsDemo } from "./demo/paths";
import { seedSsoDemo } from "./demo/sso";
import { seedAnalyticsDemo } from "./demo/analytics";
import { rebuildDailyRollups } from "../app/models/analytics-daily.server";
import { seedDemoQuizzes } from "./demo/quizzes";
import { seedGroupsDemo } from "./demo/groups";
import { seedLeaderboardDemo } from "./demo/leaderboard";
import { seedBrowseDemo } from "./demo/browse";
import { seedAssignmentsDemo } from "./demo/assignments";
import { seedRecertificationDemo } from "./demo/recertification";
import { reassignExpiring } from "../app/models/recertification.server";

import { seedCaptionsDemo } from "./demo/captions";
import { seedComplianceDemo } from "./demo/compliance";
import { seedRemindersDemo } from "./demo/reminders";
import { seedActivityDemo } from "./demo/activity";
import { seedAuditDemo } from "./demo/audit";
import { seedPeopleBulkDemo } from "./demo/people-bulk";
import { seedCourseBulkDemo } from "./demo/course-bulk";
import { seedImportsDemo } from "./demo/imports";
import { seedXapiDemo } from "./demo/xapi";
import { seedPlatformListsDemo } from "./demo/platform-lists";

interface DemoCourse {
  title: string;
  description: string;
  type: CourseType;
  published: boolean;
  category?: string;
  externalUrl?: string;
}

/** The demo's password for every account (README). */
export const DEMO_PASSWORD = "demo1234";

interface DemoPerson {
  email: string;
  firstName: string;
  lastName: string;
  role: "admin" | "learner";
}

interface DemoOrganization {
  /** Reminders by e-mail (issue 34): two compliance courses assigned to the demo learner (scripts/demo/reminders.ts). */
  reminders: { soon: string; overdue: string };
  name: string;
  urlPrefix: string;
  language: "en" | "da";
  twoFactorRequired: boolean;
  people: DemoPerson[];
  footer: string;
  categories: string[];
  courses: DemoCourse[];
}

const DEMO: DemoOrganization[] = [
  {
    name: "Acme Academy",
    reminders: { soon: "Workplace Safety Essentials", overdue: "Data Protection Basics" },
    urlPrefix: "acme",
    language: "en",
    twoFactorRequired: true,
    people: [
      { email: "admin@acme.test", firstName: "Ada", lastName: "Admin", role: "admin" },
      { email: "learner@acme.test", firstName: "Leo", lastName: "Learner", role: "learner" },
    ],
    footer: "Acme Academy · Learning for every Acme team",
    categories: ["Onboarding", "Compliance", "Skills"],
    courses: [
      {
        title: "Welcome to Acme",
        description: "A ten-minute film about who we are, what we make and how we work together.",
        type: "movie",
        published: true,
        category: "Onboarding",
      },
      {
        title: "Workplace Safety Essentials",
        description: "Five short episodes on hazards, protective equipment and what to do when something goes wrong.",
        type: "series",
        published: true,
        category: "Compliance",
      },
      {
        title: "Data Protection Basics",
        description: "How to handle personal data under the GDPR, with everyday examples from sales and support.",
        type: "series",
        published: true,
        category: "Compliance",
      },
      {
        title: "Customer Service Handbook",
        description: "The handbook our support team works from, as a PDF to keep.",
        type: "download",
        published: true,
        category: "Skills",
      },
      {
        title: "Project Management Fundamentals",
        description: "Planning, estimating and running a project, from kick-off to retrospective.",
        type: "series",
        published: true,
        category: "Skills",
      },
      {
        title: "Advanced Negotiation (draft)",
        description: "Not published yet: learners must not see this course.",
        type: "series",
        published: false,
        category: "Skills",
      },
    ],
  },
  {
    name: "Nordlys Akademi",
    reminders: { soon: "Førstehjælp på arbejdspladsen", overdue: "Bæredygtighed i hverdagen" },
    urlPrefix: "nordlys",
    language: "da",
    twoFactorRequired: false,
    people: [
      { email: "admin@nordlys.test", firstName: "Astrid", lastName: "Andersen", role: "admin" },
      { email: "learner@nordlys.test", firstName: "Lars", lastName: "Larsen", role: "learner" },
    ],
    footer: "Nordlys Akademi · Læring for hele organisationen",
    categories: ["Introduktion", "Sikkerhed", "Bæredygtighed"],
    courses: [
      {
        title: "Velkommen til Nordlys",
        description: "En kort film om vores historie, vores værdier og vores hverdag.",
        type: "movie",
        published: true,
        category: "Introduktion",
      },
      {
        title: "Førstehjælp på arbejdspladsen",
        description: "Fire afsnit om hjertestop, forbrændinger og hvordan du kalder hjælp.",
        type: "series",
        published: true,
        category: "Sikkerhed",
      },
      {
        title: "Bæredygtighed i hverdagen",
        description: "Små vaner, der gør en stor forskel for energi, affald og transport.",
        type: "series",
        published: true,
        category: "Bæredygtighed",
      },
      {
        title: "Medarbejderhåndbog",
        description: "Håndbogen med alt om ferie, sygdom og arbejdstid som PDF.",
        type: "download",
        published: true,
        category: "Introduktion",
      },
      {
        title: "Ledelse for nye ledere (kladde)",
        description: "Endnu ikke udgivet.",
        type: "series",
        published: false,
        category: "Introduktion",
      },
    ],
  },
];

/**
 * Seeds the two demo organizations: accounts, categories, courses with their content and carousels
 * (scripts/demo/catalog.ts), and — unless `history` is false — 200 generated learners per organization
 * with four months of learning behind them (scripts/demo/history.ts). Only runs on a registry with no
 * organizations, so it never touches real data.
 */
export async function seedDemo(
  platform: Platform,
  { history = true, now = new Date() }: { history?: boolean; now?: Date } = {},
): Promise<{ seeded: boolean; hosts: string[] }> {
  // The demo's history completes courses and quizzes: certificates, analytics and points follow from it.
  subscribeLearningEvents();
  const hosts = DEMO.map((o) => `${o.urlPrefix}.${platform.platformDomain}`);
  if (listOrganizations(platform.db).length > 0) return { seeded: false, hosts };
  if (!platform.db.select().from(superAdmins).get()) {
    await createSuperAdmin(platform.db, { email: "super@lectern.test", password: DEMO_PASSWORD, firstName: "Sam", lastName: "Super" });
  }
  for (const demo of DEMO) {
    const organization = createOrganization(
      platform.db,
      { dataDir: platform.dataDir },
      {
        name: demo.name,
        urlPrefix: demo.urlPrefix,
        language: demo.language,
        footer: demo.footer,
        twoFactorRequired: demo.twoFactorRequired,
      },
    );
    await platform.tenants.withTenant(organization.id, async (db) => {
      for (const person of demo.people) {
        await createUser(db, { ...person, password: DEMO_PASSWORD });
      }
      db.transaction((tx) => {
        const categoryIds = new Map<string, number>();
        demo.categories.forEach((name, position) => {
          const row = tx.insert(categories).values({ name, position }).returning().get();
          categoryIds.set(name, row.id);
        });
        demo.courses.forEach((course, position) => {
          createCourse(tx, {
            title: course.title,
            description: course.description,
            type: course.type,
            published: course.published,
            categoryId: course.category ? categoryIds.get(course.category) : undefined,
            externalUrl: course.externalUrl,
            position,
          });
        });
      });
      // The first course (a short film) is the organization's featured course on the home page.
      const first = db.select({ id: courses.id }).from(courses).where(eq(courses.title, demo.courses[0].title)).get();
      if (first) platform.db.update(organizations).set({ featuredCourse: first.id }).where(eq(organizations.id, organization.id)).run();
      const target = { db, dataDir: platform.dataDir, organizationId: organization.id };
      await seedContent(target, CATALOG[demo.urlPrefix]);
      await seedScormDemo(db, { dataDir: platform.dataDir, organizationId: organization.id, language: demo.language });
      if (history) seedHistory(db, { seed: demo.urlPrefix, domain: `${demo.urlPrefix}.test`, language: demo.language, now });
      seedCertificatesDemo(db, {
        courseTitle: demo.courses[0].title,
        learnerEmail: demo.people.find((p) => p.role === "learner")!.email,
        language: demo.language,
      });
      seedLeaderboardDemo(db, { language: demo.language, domain: `${demo.urlPrefix}.test` });
      seedDemoQuizzes(db, demo.language);
      // After the quizzes' course, so the courses seeded before keep their ids.
      await seedPackagesDemo(db, { dataDir: platform.dataDir, organizationId: organization.id, language: demo.language });
      if (history) seedAnalyticsDemo(db, { domain: `${demo.urlPrefix}.test`, language: demo.language, now });
      // A learning path of the first courses, with learners at every stage (issue 49).
      seedPathsDemo(db, { language: demo.language, now });
      // Recertification (issue 34): Acme's safety course valid 12 months, certificates expiring and expired.
      if (history && demo.urlPrefix === "acme") await seedRecertificationDemo(db, { courseTitle: demo.courses[1].title, now });
      // The content lists' filters (issue 50): an unused quiz, a second template, a revoked certificate.
      seedContentListsDemo(db, { language: demo.language, learnerEmail: demo.people.find((p) => p.role === "learner")!.email, now });
      seedGroupsDemo(db);
      // The paths assigned (issue 49): to the first group, and the demo learner's own, once the groups exist.
      seedPathAssignmentsDemo(db, { now });
      // Compliance assignments (issue 34): Acme's safety, data protection and welcome courses, due in the past and the future.
      if (demo.urlPrefix === "acme") seedAssignmentsDemo(db, { adminEmail: "admin@acme.test", learnerEmail: "learner@acme.test", now });
      // Issue 34's compliance report: assignments with due days behind and ahead (none when some exist already).
      if (history) seedComplianceDemo(db, { language: demo.language, now });
      // The audit of what admins did (issue 44): the hand-picked groups' members, added over four months.
      seedAuditDemo(db, { language: demo.language, now });
      // When each person was last active (issue 50): the people list's "last active".
      seedActivityDemo(db, { now });
      // A bulk action on people (issue 50): every active learner put in a group of their own, as a finished job.
      await seedPeopleBulkDemo(db, { language: demo.language, now });
      // Bulk actions on courses (issue 50): a category's courses unpublished, then published again, as finished jobs.
      await seedCourseBulkDemo(db, { now });
      // Earlier CSV imports (issue 50): the list under the import form.
      seedImportsDemo(db, { domain: `${demo.urlPrefix}.test`, now });
      await seedBrowseDemo(target);
      // Recertification (issue 34): last, so that every assignment the demo made is covered: whoever is due is
      // re-assigned as of `now`, and a server started on the demo finds nothing to do.
      if (history) await reassignExpiring(db, { now });

      // Issue 47: the Learning Record Store's credentials and a month of an outside course's statements.
      seedXapiDemo(db, { seed: demo.urlPrefix, language: demo.language, now });
      // Issue 50: the API tokens and LRS credentials lists with rows of every state.
      seedPlatformListsDemo(db, { language: demo.language, adminEmail: demo.people.find((p) => p.role === "admin")!.email, now });
      // Issue 35: captions on every demo video (English; Nordlys's in Danish too).
      seedCaptionsDemo(db, { dataDir: platform.dataDir, organizationId: organization.id, demo: demo.urlPrefix });
      // Analytics' daily rollups in the organization's zone, so the first report reads them (the server
      // would otherwise queue the same rebuild at the first report: docs/decisions/018-analytics.md).
      await rebuildDailyRollups(db, organization.timeZone);
      // Reminders by e-mail (issue 34): last, and only when nothing above assigned a course.
      seedRemindersDemo(db, organization, {
        ...demo.reminders,
        learnerEmail: demo.people.find((p) => p.role === "learner")!.email,
        adminEmail: demo.people.find((p) => p.role === "admin")!.email,
        now,
      });
    });
  }
  seedSsoDemo(platform);
  platform.organizations.invalidate();
  return { seeded: true, hosts };
}
