import { and, count, desc, eq, isNotNull } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { packageLaunches, packageRegistrations, type ContentPackage, type Lesson } from "../../../db/tenant";
import type { Signer } from "../scorm-token.server";
import { aus, inLanguage, outline, type Cmi5Course, type MoveOn } from "./cmi5-structure";
import type { LaunchMode } from "./cmi5-rules";
import { packageContentBase } from "./content-address.server";
import { getContentPackage } from "./install.server";
import { startLaunch } from "./launches.server";
import { auStates } from "./satisfaction.server";
import type { TincanPackage } from "./tincan";

/*
 * An xAPI or cmi5 lesson in the player (docs/decisions/044-xapi-cmi5-packages.md): what the learner sees of
 * their registration (a cmi5 course's blocks and AUs with each AU's state, an xAPI package's one activity),
 * and the launch a form on the lesson page asks for. The launch answers with the address to open, which the
 * page's action sends the browser to: the package's files on the content origin, or a cmi5 AU's own site.
 */

export type AuState = "not_attempted" | "in_progress" | "completed" | "passed" | "failed" | "satisfied" | "waived";

export type PlayerItem =
  | { type: "block"; depth: number; title: string }
  | {
      type: "au";
      depth: number;
      id: string;
      title: string;
      state: AuState;
      score: number | null;
      moveOn: MoveOn;
      masteryScore: number | null;
      ownWindow: boolean;
    };

export interface PackagePlayerData {
  kind: "xapi" | "cmi5";
  title: string;
  items: PlayerItem[];
  /** Whether the learner's open registration has started (a launch was made) and is satisfied. */
  started: boolean;
  satisfied: boolean;
  /** Earlier attempts, kept as history (a retake or a review closed each). */
  earlier: number;
}

/** The learner's latest registration of the lesson (open unless a retake closed it and none followed). */
function latestRegistration(db: TenantConn, lessonId: number, userId: number) {
  return db
    .select()
    .from(packageRegistrations)
    .where(and(eq(packageRegistrations.lessonId, lessonId), eq(packageRegistrations.userId, userId)))
    .orderBy(desc(packageRegistrations.id))
    .limit(1)
    .get();
}

type StoredState = NonNullable<ReturnType<ReturnType<typeof auStates>["get"]>>;

/** One word for an AU's state: waived, passed, completed, failed, met without either (NotApplicable), or how far it got. */
function auState(state: StoredState | undefined, launched: boolean): AuState {
  if (state?.waivedReason != null) return "waived";
  if (state?.passed) return "passed";
  if (state?.completed) return "completed";
  if (state?.failed) return "failed";
  if (state?.satisfiedAt) return "satisfied";
  return launched ? "in_progress" : "not_attempted";
}

function cmi5Items(course: Cmi5Course, states: ReturnType<typeof auStates>, launched: Set<string>, language: string): PlayerItem[] {
  return outline(course.children).map(({ member: m, depth }): PlayerItem => {
    if (m.kind === "block") return { type: "block", depth, title: inLanguage(m.title, language) };
    const state = states.get(m.id);
    return {
      type: "au",
      depth,
      id: m.id,
      title: inLanguage(m.title, language),
      state: auState(state, launched.has(m.id)),
      score: state?.score != null ? Math.round(state.score * 100) : null,
      moveOn: m.moveOn,
      masteryScore: m.masteryScore,
      ownWindow: m.launchMethod === "OwnWindow",
    };
  });
}

/** The player's view of a package lesson for a learner, or null when the lesson has no package yet. */
export function packagePlayerData(
  db: TenantConn,
  { lesson, userId, language, completed }: { lesson: Lesson; userId: number; language: string; completed: boolean },
): PackagePlayerData | null {
  const pkg = getContentPackage(db, lesson.id);
  if (!pkg) return null;
  const registration = latestRegistration(db, lesson.id, userId);
  const open = registration && registration.closedAt === null ? registration : undefined;
  const earlier =
    db
      .select({ n: count() })
      .from(packageRegistrations)
      .where(
        and(
          eq(packageRegistrations.lessonId, lesson.id),
          eq(packageRegistrations.userId, userId),
          isNotNull(packageRegistrations.closedAt),
        ),
      )
      .get()?.n ?? 0;
  const launched = new Set<string>(open ? launchedAus(db, open.id) : []);
  const title = pkg.title;
  if (pkg.kind === "xapi") {
    const tincan = pkg.structure as TincanPackage;
    const state: AuState = completed ? "completed" : launched.size > 0 ? "in_progress" : "not_attempted";
    return {
      kind: "xapi",
      title,
      items: [
        {
          type: "au",
          depth: 0,
          id: tincan.launch.id,
          title: inLanguage(tincan.launch.name, language) || title,
          state,
          score: null,
          moveOn: "CompletedOrPassed",
          masteryScore: null,
          ownWindow: false,
        },
      ],
      started: launched.size > 0,
      satisfied: completed,
      earlier,
    };
  }
  const states = open ? auStates(db, open.id) : new Map();
  return {
    kind: "cmi5",
    title,
    items: cmi5Items(pkg.structure as Cmi5Course, states, launched, language),
    started: launched.size > 0,
    satisfied: Boolean(open?.satisfiedAt),
    earlier,
  };
}

/** The AUs launched at least once in a registration. */
function launchedAus(db: TenantConn, registrationId: number): string[] {
  return db
    .selectDistinct({ auId: packageLaunches.auId })
    .from(packageLaunches)
    .where(eq(packageLaunches.registrationId, registrationId))
    .all()
    .map((r) => r.auId);
}

export type LaunchAsk = "start" | "retake" | "review";

export interface LaunchPlace {
  signer: Signer;
  contentOrigin: string;
  organizationId: number;
  /** The organization's origin: the LRS is at `<origin>/xapi/`, the learner returns to `<origin><returnPath>`. */
  origin: string;
  returnPath: string;
  preview: boolean;
}

/**
 * Launches an AU (or the xAPI package) for the learner: in their open registration, or a new one for a retake or
 * a review (the old one kept as history). A preview (someone who may see the course without learning it) is
 * launched in Browse mode. Answers the address to open and what it opens, or null for an AU the package does not have.
 */
export type Launched =
  | { ok: true; url: string; title: string; registration: string; sessionId: string; auId: string; launchMode: LaunchMode }
  | { ok: false; problem: "no_package" | "no_au" | "registration" };

export interface LaunchAsked {
  lesson: Lesson;
  userId: number;
  /** The AU's publisher id (cmi5; null: the first), ignored for an xAPI package. */
  auId: string | null;
  ask: LaunchAsk;
  language: string;
  /** A mode asked for (/api); else Normal, Review for a review, Browse for a preview. */
  launchMode?: LaunchMode;
  /** The learner's open registration, named (/api): any other is refused. */
  registration?: string;
}

export function launchPackage(
  db: TenantConn,
  { lesson, userId, auId, ask, language, launchMode: asked, registration }: LaunchAsked,
  place: LaunchPlace,
): Launched {
  const pkg: ContentPackage | undefined = getContentPackage(db, lesson.id);
  if (!pkg) return { ok: false, problem: "no_package" };
  if (pkg.kind === "cmi5" && auId !== null && !aus((pkg.structure as Cmi5Course).children).some((au) => au.id === auId))
    return { ok: false, problem: "no_au" };
  if (registration !== undefined) {
    const open = latestRegistration(db, lesson.id, userId);
    if (ask !== "start" || !open || open.closedAt !== null || open.registration !== registration.toLowerCase())
      return { ok: false, problem: "registration" };
  }
  const launchMode: LaunchMode = place.preview ? "Browse" : (asked ?? (ask === "review" ? "Review" : "Normal"));
  const contentBase = packageContentBase(place.signer, {
    contentOrigin: place.contentOrigin,
    organizationId: place.organizationId,
    lessonId: lesson.id,
    userId,
    packageId: pkg.id,
    preview: place.preview,
  });
  const started = startLaunch(
    db,
    { pkg, lesson, userId, auId: auId ?? undefined, launchMode, fresh: ask !== "start" },
    { origin: place.origin, contentBase, returnURL: `${place.origin}${place.returnPath}` },
  );
  const structure = pkg.structure as Cmi5Course | TincanPackage;
  const au = "children" in structure ? aus(structure.children).find((a) => a.id === started.launch.auId) : undefined;
  return {
    ok: true,
    url: started.url,
    title: au ? inLanguage(au.title, language) : pkg.title,
    registration: started.registration.registration,
    sessionId: started.launch.sessionId,
    auId: started.launch.auId,
    launchMode,
  };
}
