import { isBusyError } from "../db/write-lock";
import { listOrganizations } from "../app/models/organization.server";
import type { Platform } from "./platform";
import { logger } from "./logger";

/**
 * A clock over every organization (recertification's re-assignments, the audit's retention): at start and then every
 * `everyMs`, `visit` is called for each organization in turn, one a turn of the event loop so that requests are
 * answered meanwhile, and again for the same one while it returns true (more to do there). A locked organization is
 * looked at again at the next sweep; another error is logged under `what`. Returns a function that stops the clock.
 */
export function sweepOrganizations(
  platform: Pick<Platform, "db">,
  { everyMs, what }: { everyMs: number; what: string },
  visit: (organizationId: number) => boolean | void,
) {
  let stopped = false;
  const sweep = () => {
    const organizations = listOrganizations(platform.db);
    let next = 0;
    const step = () => {
      if (stopped || next >= organizations.length) return;
      let again = false;
      try {
        again = visit(organizations[next].id) === true;
      } catch (error) {
        if (!isBusyError(error)) logger.warn({ org: organizations[next].id, error: String(error) }, what);
      }
      if (!again) next++;
      setImmediate(step);
    };
    step();
  };
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  setImmediate(sweep);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
