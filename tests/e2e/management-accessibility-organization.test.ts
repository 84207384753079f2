import { describeArea, isOrganizationScreen, managementScreens, screensRun, themesOf } from "../helpers/management-screens";
import { ORGANIZATION_STATES } from "../helpers/management-states";

/**
 * axe-core on an organization's screens under /dashboard (/dashboard/organizations/:id and below: courses,
 * lessons, quizzes, groups, certificates, settings…), as Acme's organization admin, in the light and the dark
 * theme, with the moments of the assign form no address shows by itself, and every tab those screens show is
 * among the screens checked (tests/helpers/management-screens.ts says how). /dashboard's own screens are
 * tests/e2e/management-accessibility-dashboard.test.ts's.
 */
const run = screensRun();
const screens = await managementScreens();

describeArea(run, "dashboard", {
  screens: screens.dashboard.filter(isOrganizationScreen),
  themes: (pattern) => themesOf(pattern, screens.dashboard),
  states: ORGANIZATION_STATES,
  tabsOf: screens.dashboard,
});
