import { clickAndWait, settled } from "./browser";
import { chooseFile, CSV_HEADER, csvFile, ORGANIZATION, type ScreenState } from "./management-screens";

/**
 * Moments of the dashboard's screens that no address shows by itself: the analytics compared with the
 * previous period (with its tables and a tooltip), problems found in an uploaded CSV, a form's errors, a
 * flash message (and, in `ORGANIZATION_STATES`, the assign form's).
 */
export const DASHBOARD_STATES: ScreenState[] = [
  {
    name: "analytics by week with the previous period, its data tables open and a bar's tooltip",
    reach: async (page, origin) => {
      await page.goto(`${origin}/dashboard/analytics?period=12m&group=week&compare=true`, { waitUntil: "load" });
      await settled(page);
      await page.$$eval("details", (list) => list.forEach((d) => ((d as HTMLDetailsElement).open = true)));
      await page.hover('[data-testid="kpi-new_users"] .chart-hit');
      await page.waitForSelector(".chart-tooltip");
    },
  },
  {
    name: "the compliance report's people, narrowed to one state, with a filter's error",
    reach: async (page, origin) => {
      await page.goto(`${origin}/dashboard/compliance/people?state=overdue&due_from=2026-02-30`, { waitUntil: "load" });
      await settled(page);
      await page.waitForSelector("#compliance-due_from-error");
    },
  },
  {
    name: "the import's problems with an uploaded file",
    reach: async (page, origin) => {
      await page.goto(`${origin}/dashboard/users/import`, { waitUntil: "load" });
      await settled(page);
      await chooseFile(page, "#import-file", csvFile(`${CSV_HEADER}\nAnna,Berg,,not-an-address\n`));
      await page.click('[data-testid="check-import"]');
      await page.waitForSelector('[data-testid="import-problems"]');
    },
  },
  {
    name: "a user form with field errors",
    reach: async (page, origin) => {
      await page.goto(`${origin}/dashboard/users/create`, { waitUntil: "load" });
      await settled(page);
      await page.type("input[name=email]", "not-an-address");
      await page.keyboard.press("Tab");
      await page.waitForSelector(".field-errors");
    },
  },
  {
    name: "a flash message after saving",
    reach: async (page, origin) => {
      await page.goto(`${origin}/dashboard/users/settings`, { waitUntil: "load" });
      await clickAndWait(page, '[data-testid="user-settings"] button[type=submit]');
      await page.waitForSelector('[data-testid="flash"]');
    },
  },
];

/** Moments of an organization's screens under /dashboard: the assign form's errors, and the same form as a group's admins see it. */
export const ORGANIZATION_STATES: ScreenState[] = [
  {
    name: "the assign form with its errors and the people a name finds",
    reach: async (page, origin, demo) => {
      const course = demo.assignments[0].courseId;
      await page.goto(`${origin}/dashboard/organizations/${ORGANIZATION.id}/courses/${course}/assignments`, { waitUntil: "load" });
      await settled(page);
      await page.type('[data-testid="person"]', "a");
      await page.click('[data-option="days"] input[type="radio"]');
      await page.type('[data-testid="due-days"]', "7");
      // Answered in place (400, with JavaScript by the router's fetch): no navigation to wait for.
      await page.click('[data-testid="assign"]');
      await page.waitForSelector('[data-testid="person-choices"]');
    },
  },
  {
    name: "a group's assignments as its group admins see them (/groups/{id}/assignments)",
    reach: async (page, origin, demo) => {
      await page.goto(`${origin}/groups/${demo.groupId}/assignments?assignment=${demo.assignments[0].assignmentId}`, { waitUntil: "load" });
      await page.waitForSelector('[data-testid="assign-form"]');
    },
  },
];
