// Use Debian's Chromium when it is there (CI installs it); never download a browser of our own,
// which cannot work on a machine without internet access.
const fs = require("node:fs");
const systemChromium = process.env.CHROME_PATH || "/usr/bin/chromium";
module.exports = {
  skipDownload: true,
  executablePath: fs.existsSync(systemChromium) ? systemChromium : undefined,
};
