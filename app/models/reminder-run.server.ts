import type { TFunction } from "i18next";
import type { TenantDb } from "../../db/open";
import type { Organization } from "../../db/platform";
import { toSeconds } from "../../db/prepared";
import type { ReminderServices } from "../../server/services";
import { dayIn, localMidnight } from "../utils/calendar";
import type { Language } from "../utils/i18n";
import { getFixedT } from "../utils/i18n.server";
import { tenantTimeZone } from "./time-zone.server";

/** The local hour from which day kinds (before, due, overdue) and digests go. */
export const SEND_FROM_HOUR = 8;

/** What every part of one reminders run shares (app/models/reminders.server.ts): the organization, its clock, its links, the texts. */
export interface RunContext {
  db: TenantDb;
  organization: Organization;
  /** The organization's stored origin: every link in a mail starts with it. */
  origin: string;
  /** The organization's day (YYYY-MM-DD) on the run's clock. */
  today: string;
  /** The run's clock in whole seconds, as timestamps are stored. */
  at: number;
  /** Whether it is 08:00 or later in the organization: day kinds and digests go. */
  dayKindsNow: boolean;
  /** The mail's texts in a language, loaded once per run (app/models/reminder-mail.server.ts keeps what repeats). */
  translator: (language: Language) => Promise<TFunction>;
}

export function runContext(db: TenantDb, services: Pick<ReminderServices, "originFor">, organization: Organization, now: Date): RunContext {
  const zone = tenantTimeZone(db);
  const today = dayIn(zone, now);
  const translators = new Map<Language, TFunction>();
  return {
    db,
    organization,
    origin: services.originFor(organization),
    today,
    at: toSeconds(now),
    dayKindsNow: now.getTime() - localMidnight(today, zone) >= SEND_FROM_HOUR * 3_600_000,
    translator: async (language) => {
      let t = translators.get(language);
      if (!t) translators.set(language, (t = await getFixedT(language)));
      return t;
    },
  };
}

/** How a mail names a person: their name, else their address. */
export const fullName = (p: { firstName: string; lastName: string; email: string }) =>
  [p.firstName, p.lastName].filter(Boolean).join(" ") || p.email;
