import { describe, expect, it } from "vitest";
import {
  addressesOf,
  describeArea,
  EXCLUDED,
  isOrganizationScreen,
  managementScreens,
  screensRun,
  themesOf,
} from "../helpers/management-screens";
import { DASHBOARD_STATES } from "../helpers/management-states";

/**
 * axe-core on /dashboard's own screens (its home, analytics, compliance, people), as Acme's organization admin,
 * in the light and the dark theme, and on the moments of its screens no address shows by itself
 * (tests/helpers/management-screens.ts says how). An organization's screens under /dashboard are
 * tests/e2e/management-accessibility-organization.test.ts's, /admin's
 * tests/e2e/management-accessibility-admin.test.ts's; here, that the three files check every page
 * remix.config.js declares under /dashboard and /admin.
 */
const run = screensRun();
// The patterns are read as vitest collects the file (a test per pattern); each test turns its pattern into
// addresses once the demo's ids are known.
const screens = await managementScreens();

describe("the screens checked", () => {
  it("are every page remix.config.js declares under /dashboard and /admin, but the excluded downloads and fallbacks", () => {
    expect(screens.declared.length).toBeGreaterThan(60);
    for (const excluded of Object.keys(EXCLUDED)) expect(screens.declared, `${excluded} is still declared`).toContain(excluded);
    expect(screens.dashboard.length + screens.admin.length + Object.keys(EXCLUDED).length).toBe(screens.declared.length);
    // Every pattern has an address with every parameter filled in: a new parameter needs a demo id in the helper.
    for (const pattern of [...screens.dashboard, ...screens.admin])
      for (const address of addressesOf(pattern, run.demo)) expect(address, pattern).not.toMatch(/:/);
  });
});

describeArea(run, "dashboard", {
  screens: screens.dashboard.filter((pattern) => !isOrganizationScreen(pattern)),
  themes: (pattern) => themesOf(pattern, screens.dashboard),
  states: DASHBOARD_STATES,
});
