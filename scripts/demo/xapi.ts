import crypto from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { createXapiCredential } from "../../app/models/xapi/credentials.server";
import { storeStatements } from "../../app/models/xapi/statements.server";
import type { TenantDb } from "../../db/open";
import { users } from "../../db/tenant";

/**
 * The Learning Record Store (issue 47; the organization's LRS screen): two credentials, as an organization
 * sets them up (an authoring tool's content that sends, a reporting tool that reads all), and a month of
 * statements from a simulation course published outside Lectern: launches, answers, passes and fails, with
 * scores, and one statement voided. Ids come from the demo's name and the statement's place, and times from
 * `now`, so the demo is the same when seeded again as of the same moment. The secrets are not kept: an
 * admin makes a credential of their own to try the LRS.
 */
const DAY = 86_400_000;
const ADL = "http://adlnet.gov/expapi/verbs/";
const COURSE = "https://content.example.com/forklift-simulator";

const TEXTS = {
  en: {
    course: "Forklift simulator",
    scenes: ["Pre-use inspection", "Loading a pallet", "Narrow aisle", "Emergency stop"],
    tool: "Storyline courses",
    reports: "Reporting",
  },
  da: {
    course: "Gaffeltruck-simulator",
    scenes: ["Eftersyn før brug", "Læsning af en palle", "Smal gang", "Nødstop"],
    tool: "Storyline-kurser",
    reports: "Rapportering",
  },
};

/** A UUID (version 4 form) from a name, the same every time. */
function uuidOf(name: string) {
  const hex = crypto.createHash("sha256").update(name).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function seedXapiDemo(db: TenantDb, { seed, language, now = new Date() }: { seed: string; language: "en" | "da"; now?: Date }) {
  const text = TEXTS[language];
  const tool = createXapiCredential(db, { name: text.tool, scope: "write", version: "1.0.3", userId: null, days: 365, now });
  createXapiCredential(db, { name: text.reports, scope: "all", version: "2.0.0", userId: null, days: 90, now });
  if ("error" in tool) return;
  const learners = db.select().from(users).where(eq(users.role, "learner")).orderBy(asc(users.id)).limit(8).all();
  const authority = { objectType: "Agent", name: text.tool, account: { homePage: `https://${seed}.test/xapi`, name: tool.key } };
  const lang = language === "da" ? "da-DK" : "en-US";
  const verb = (id: string, display: string) => ({ id: `${ADL}${id}`, display: { "en-US": display } });
  const course = { id: COURSE, definition: { name: { [lang]: text.course }, type: "http://adlnet.gov/expapi/activities/course" } };
  let n = 0;
  learners.forEach((person, p) => {
    const actor = { objectType: "Agent", name: `${person.firstName} ${person.lastName}`.trim(), mbox: `mailto:${person.email}` };
    const registration = uuidOf(`${seed}:registration:${person.id}`);
    const start = now.getTime() - (28 - p * 3) * DAY;
    const context = { registration, contextActivities: { parent: [{ id: COURSE }] } };
    const statements: object[] = [{ actor, verb: verb("launched", "launched"), object: course, context: { registration } }];
    text.scenes.forEach((scene, s) => {
      const scaled = ((p * 7 + s * 13) % 40) / 100 + 0.6;
      statements.push({
        actor,
        verb: verb("answered", "answered"),
        object: {
          id: `${COURSE}/scenes/${s + 1}`,
          definition: { name: { [lang]: scene }, type: "http://adlnet.gov/expapi/activities/interaction" },
        },
        result: {
          score: { scaled, raw: Math.round(scaled * 100), min: 0, max: 100 },
          success: scaled >= 0.7,
          duration: `PT${3 + s}M${(p * 11) % 60}S`,
        },
        context,
      });
    });
    const passed = p % 4 !== 3;
    statements.push({
      actor,
      verb: verb(passed ? "passed" : "failed", passed ? "passed" : "failed"),
      object: course,
      result: { score: { scaled: passed ? 0.85 : 0.55 }, success: passed, completion: true },
      context: { registration },
    });
    statements.forEach((statement, i) => {
      const at = new Date(start + i * 4 * 60_000);
      storeStatements(
        db,
        tool.credential,
        { ...statement, id: uuidOf(`${seed}:statement:${n++}`), timestamp: at.toISOString() },
        {
          version: "1.0.3",
          authority,
          now: at,
        },
      );
    });
  });
  // A result sent twice by mistake, then voided by the tool that sent it.
  const first = learners[0];
  if (!first) return;
  const mistaken = uuidOf(`${seed}:statement:mistaken`);
  const at = new Date(now.getTime() - 2 * DAY);
  const actor = { objectType: "Agent", mbox: `mailto:${first.email}` };
  storeStatements(
    db,
    tool.credential,
    { id: mistaken, actor, verb: verb("failed", "failed"), object: course, result: { success: false } },
    {
      version: "1.0.3",
      authority,
      now: at,
    },
  );
  storeStatements(
    db,
    tool.credential,
    {
      id: uuidOf(`${seed}:statement:voiding`),
      actor,
      verb: verb("voided", "voided"),
      object: { objectType: "StatementRef", id: mistaken },
    },
    { version: "1.0.3", authority, now: new Date(at.getTime() + 60_000) },
  );
}
