import type { TenantConn } from "../../db/open";
import { accountData, personOf, profileOf } from "./personal-data/account.server";
import { learningData } from "./personal-data/learning.server";
import { pointsData } from "./personal-data/points.server";
import { packageAttemptsOf, pathEnrolmentsOf } from "./personal-data/programs.server";
import { xapiData } from "./personal-data/xapi.server";

/*
 * A person's own data in one organization, as one JSON document (GDPR Art. 15 "right of access" and Art. 20
 * "portability"; issue 47: "a learner's own statements are part of their data export"): what /profile/data
 * hands them as a download. Every table of the organization's database (db/tenant/*.ts) that holds a row
 * about the person is read here, keyed by their id (or, for the LRS, by the agents that name them), and
 * nothing of anyone else's: rows of theirs that name other people (an admin who assigned them a course) give
 * the group's or the course's name, never another person.
 *
 * Included, by section (./personal-data/*.server.ts):
 *   profile        users (their own row), player_preferences, reminder_opt_outs, learner_stats.hidden
 *   groups         group_members (with the group's name)
 *   sign_in        sessions (devices: kind, browser, address, when; not the token's hash nor a code's
 *                  secret), sso_identities (provider, issuer, subject), api_tokens (name, capabilities,
 *                  dates; not the token's hash)
 *   reminders      reminders and reminder_digests (the mails sent to them: kind, due day, status, when)
 *   progress       lesson_progress, course_completions, course_completion_history, watch_time_daily
 *   bookmarks, ratings
 *   assignments    assignment_people (with their assignment's course, group and due rule), recertifications
 *   quiz_attempts  quiz_attempts with quiz_answers, as the quiz player shows an attempt: which options were
 *                  right, and the explanations, only once it has ended
 *   certificates   ids, course, score, dates, verification link (not the PDF nor the template's layout)
 *   scorm_attempts their CMI data, statuses, scores and time (not Lectern's own launch bookkeeping)
 *   package_attempts  package_registrations with cmi5_au_states and package_launches (the unit, mode, when it
 *                  began and how it ended; not a launch's fetch token or credential)
 *   learning_paths path_enrolments (with the path's title)
 *   points         learner_stats, points_totals, points_ledger, user_badges, analytics_user_hourly
 *   xapi           xapi_statements whose actor is them (their e-mail as `mbox` or its `mbox_sha1sum`, or
 *                  an `account` of the organization's origin named by their id: lesson-results.server.ts
 *                  `personOfAgent`), and the LRS documents (state, agent profiles) kept for those agents
 *
 * Left out on purpose:
 *   users.password_hash              a secret (argon2id hash)
 *   users.watch_credited_until       the heartbeat's internal clock, not information about the person
 *   sessions.token_hash, two_factor_secret, the code counters, and api_tokens.token_hash: secrets
 *   password_resets, magic_links     single-use sign-in secrets (hashes), gone once used or expired
 *   login_throttle                   failed sign-ins, kept a day at most to slow down guessing; its client
 *                                    keys name known-device nonces, which are part of a signed secret
 *   sso_logins                       no person: sign-ins on their way to a provider (state hashes, verifiers)
 *   xapi_credentials.user_id         the organization's LRS credentials, naming the admin who made them
 *   package_launches.fetch_token_hash, credential_id  a launch's secrets
 *   content_packages.uploaded_by, learning paths' steps  authorship and the organization's content
 *   assignments.created_by, files.uploaded_by, scorm_packages.uploaded_by, user_imports.created_by
 *                                    authorship of the organization's content and of admins' work; an
 *                                    import also holds other people's rows
 *   admin_audit                      the organization's record of what its admins did; each row names the
 *                                    admin who acted and the person acted on (another person either way)
 *   compliance_people/_totals/_counts  counters kept by triggers from assignment_people (included above)
 *   user_versions, summary_changes   the server's change tracking (cache versions, a sync queue)
 *   xapi_statement_agents            statements that name the person other than as their actor (an
 *                                    instructor, a team member) are about someone else's learning
 *   xapi_attachments, files          bytes on disk (attachments, certificate PDFs): the statements name
 *                                    their attachments, /profile/certificates serves the PDFs
 *   platform_people (platform database)  a copy of the profile's name, e-mail, role for /admin/users
 */

export interface PersonalDataOptions {
  /**
   * The organization's origins, its own address first (certificates' verification links and badges name
   * it): an xAPI `account` whose homePage is one of them names the person by their id.
   */
  origins?: string[];
  /** The organization's time zone (certificates' expiry instants). */
  timeZone?: string;
  now?: Date;
}

/** The data export's format: the file says which version of this layout it follows. */
export const PERSONAL_DATA_FORMAT = "lectern-personal-data/1";

/**
 * Everything the organization keeps about person `userId`, as plain JSON (snake_case keys, ISO 8601 times),
 * read in one transaction so the sections agree with each other; null when there is no such person.
 */
export function personalData(db: TenantConn, userId: number, { origins = [], timeZone, now = new Date() }: PersonalDataOptions = {}) {
  return db.transaction(
    (tx) => {
      const person = personOf(tx, userId);
      if (!person) return null;
      const origin = origins[0] ?? "";
      return {
        format: PERSONAL_DATA_FORMAT,
        exported_at: now.toISOString(),
        profile: profileOf(tx, person),
        ...accountData(tx, person.id),
        ...learningData(tx, person.id, { origin, timeZone, now }),
        package_attempts: packageAttemptsOf(tx, person.id),
        learning_paths: pathEnrolmentsOf(tx, person.id),
        points: pointsData(tx, person.id, origin),
        xapi: xapiData(tx, person, origins),
      };
    },
    // Reads only: a snapshot that never waits for, or holds up, the organization's writers.
    { behavior: "deferred" },
  );
}

export type PersonalData = NonNullable<ReturnType<typeof personalData>>;
