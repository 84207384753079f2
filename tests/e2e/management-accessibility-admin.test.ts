import { describeArea, managementScreens, screensRun, themesOf } from "../helpers/management-screens";

/**
 * axe-core on every screen under /admin, as the super-admin managing Acme, in the light and the dark theme (an
 * organization's screens, the /dashboard ones mounted again, in the light theme only: `themesOf`), and every
 * tab of an organization's screens is among them (tests/helpers/management-screens.ts says how). /dashboard's
 * are tests/e2e/management-accessibility-dashboard.test.ts's and -organization.test.ts's.
 */
const run = screensRun();
const screens = await managementScreens();

describeArea(run, "admin", { screens: screens.admin, themes: (pattern) => themesOf(pattern, screens.dashboard), tabsOf: screens.admin });
