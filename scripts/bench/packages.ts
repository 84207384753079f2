import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { users, type ContentPackage } from "../../db/tenant";
import { CMI5_CATEGORY, CMI5_VERBS, MOVE_ON_CATEGORY, SESSION_ID } from "../../app/models/packages/cmi5-rules";
import { fetchAuthToken, markPreferencesRead, startLaunch } from "../../app/models/packages/launches.server";
import { launchTracking } from "../../app/models/packages/tracking.server";
import { authenticateXapi } from "../../app/models/xapi/credentials.server";
import { storeStatements } from "../../app/models/xapi/statements.server";
import { authorityOf } from "../../app/xapi/authority";
import { ESSENTIALS, ESSENTIALS_AU, packageLesson, packageRow } from "../../tests/helpers/packages";
import { ratio } from "./measure";
import { atLeast, atMost, type Report } from "./table";
import { BASE_URL, newTenant } from "./xapi-data";

/**
 * cmi5 sessions (issue 48): each AU's session as an AU sends it (initialized, completed, passed, terminated),
 * stored through the launch's rules (`launchTracking`: cmi5's checks, the AU's state, satisfaction of its block
 * and course, the lesson completed) against the same statements stored by the LRS alone in another organization,
 * in the same run. Launches (the registration, LMS.LaunchData, `launched`, the one-use fetch) are timed apart.
 * `BENCH_ONLY=packages` runs this part alone; BENCH_CMI5_SESSIONS makes it smaller.
 */
const SESSIONS = Number(process.env.BENCH_CMI5_SESSIONS ?? 1000);
const ORIGIN = "https://acme.test";

const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;

function sessionStatements(url: URL, sessionId: string) {
  const actor = JSON.parse(url.searchParams.get("actor")!);
  const activityId = url.searchParams.get("activityId")!;
  const registration = url.searchParams.get("registration")!;
  const statement = (verb: keyof typeof CMI5_VERBS, result?: object, moveOn = false) => ({
    id: crypto.randomUUID(),
    timestamp: new Date().toISOString(),
    actor,
    verb: { id: CMI5_VERBS[verb] },
    object: { id: activityId },
    ...(result ? { result } : {}),
    context: {
      registration,
      contextActivities: {
        grouping: [{ id: ESSENTIALS_AU }],
        category: [{ id: CMI5_CATEGORY }, ...(moveOn ? [{ id: MOVE_ON_CATEGORY }] : [])],
      },
      extensions: { [SESSION_ID]: sessionId },
    },
  });
  return [
    statement("initialized"),
    statement("completed", { completion: true, duration: "PT5M" }, true),
    statement("passed", { success: true, duration: "PT5M" }, true),
    statement("terminated", { duration: "PT5M" }),
  ];
}

function benchSessions(dir: string) {
  const model = newTenant(path.join(dir, "cmi5-model", "db.sqlite"));
  const floor = newTenant(path.join(dir, "cmi5-floor", "db.sqlite"));
  try {
    const { lesson } = packageLesson(model.db);
    const pkg: ContentPackage = packageRow(model.db, lesson, "cmi5", ESSENTIALS);
    const context = { origin: ORIGIN, contentBase: "https://1.scorm.test/c/t/", returnURL: `${ORIGIN}/` };
    const learners = model.db
      .insert(users)
      .values(
        Array.from({ length: SESSIONS }, (_, i) => ({
          email: `l${i}@acme.test`,
          firstName: "L",
          lastName: String(i),
          role: "learner" as const,
        })),
      )
      .returning({ id: users.id })
      .all();
    // The launches, timed apart: a registration, LMS.LaunchData, `launched`, the fetch that makes the credential.
    const started = process.hrtime.bigint();
    const sessions = learners.map(({ id }) => {
      const launch = startLaunch(model.db, { pkg, lesson, userId: id }, context);
      const url = new URL(launch.url);
      const fetched = fetchAuthToken(model.db, url.searchParams.get("fetch")!.split("/").pop()!, { origin: ORIGIN });
      if (!fetched.ok) throw new Error(fetched.text);
      const credential = authenticateXapi(model.db, `Basic ${fetched.authToken}`)!;
      markPreferencesRead(model.db, credential.id);
      return { credential, statements: sessionStatements(url, launch.launch.sessionId) };
    });
    const launchesPerSecond = Math.round(SESSIONS / seconds(started));
    const hook = launchTracking(ORIGIN);
    const floorAuthority = authorityOf({ credential: floor.credential, baseUrl: BASE_URL });
    let modelSeconds = 0;
    let floorSeconds = 0;
    let refused = 0;
    // Statement by statement, the floor's then the model's, so that a busy moment falls on both alike.
    for (const { credential, statements } of sessions)
      for (const s of statements) {
        let at = process.hrtime.bigint();
        const plain = storeStatements(
          floor.db,
          floor.credential,
          { ...s, id: crypto.randomUUID() },
          { version: "1.0.3", authority: floorAuthority },
        );
        floorSeconds += seconds(at);
        at = process.hrtime.bigint();
        const tracked = storeStatements(model.db, credential, s, {
          version: "1.0.3",
          authority: authorityOf({ credential, baseUrl: BASE_URL }),
          launches: hook,
        });
        modelSeconds += seconds(at);
        if (!plain.ok || !tracked.ok) refused++;
      }
    const count = SESSIONS * 4;
    const satisfied = model.db.$client
      .prepare("select count(*) from package_registrations where satisfied_at is not null")
      .pluck()
      .get() as number;
    return {
      sessions: SESSIONS,
      statements: count,
      launchesPerSecond,
      modelRate: Math.round(count / modelSeconds),
      floorRate: Math.round(count / floorSeconds),
      ratio: ratio(Math.round(count / modelSeconds), Math.round(count / floorSeconds)),
      refused,
      satisfied,
    };
  } finally {
    model.db.$client.close();
    floor.db.$client.close();
  }
}

/** The cmi5 rows (issue 48), added to the run's table and JSON under `cmi5`. */
export function reportPackages({ table, json }: Report) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-cmi5-"));
  try {
    const s = benchSessions(dir);
    console.log(
      `  cmi5: ${s.sessions} launches at ${s.launchesPerSecond}/s; their ${s.statements} statements through the launch's rules ${s.modelRate}/s, by the LRS alone ${s.floorRate}/s; ${s.satisfied} courses satisfied`,
    );
    table.push({
      what: `cmi5 AU statements through the launch's rules (${s.modelRate}/s vs the LRS alone ${s.floorRate}/s, one at a time; ${s.launchesPerSecond} launches/s): ratio`,
      ...atLeast(s.ratio, 0.25),
    });
    table.push({
      what: `cmi5 sessions of the bench refused, or not satisfying their course (${s.sessions} sessions)`,
      ...atMost(s.refused + (s.sessions - s.satisfied), 0),
    });
    json.cmi5 = s;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
