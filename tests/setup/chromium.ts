import { launchBrowser } from "../helpers/browser";

/**
 * One Chromium for the e2e files of a run (tests/helpers/browser.ts `connectBrowser`): each file connects
 * to it and works in browser contexts of its own (their own cookies, storage and cache), so a file pays
 * for its pages, not for starting a browser. Its address is passed on in LECTERN_TEST_CHROMIUM.
 */
export default async function setup() {
  const { browser, close } = await launchBrowser();
  process.env.LECTERN_TEST_CHROMIUM = browser.wsEndpoint();
  return async () => {
    delete process.env.LECTERN_TEST_CHROMIUM;
    await close();
  };
}
