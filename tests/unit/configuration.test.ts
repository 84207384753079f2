import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_KEYS, readConfig as readConfigFrom } from "../../server/config";

const readConfig = (env: Record<string, string>) => readConfigFrom(env as NodeJS.ProcessEnv);

const root = path.resolve(__dirname, "..", "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

/** `.env.example` as the server would see it: NAME=value lines, comments and blanks skipped. */
function envExample() {
  const env: Record<string, string> = {};
  for (const line of read(".env.example").split("\n")) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match) env[match[1]] = match[2];
  }
  return env;
}

describe("configuration", () => {
  it(".env.example lists every setting, and the README documents each", () => {
    const example = envExample();
    const readme = read("README.md");
    // COOKIE_SECURE is read where cookies are made, outside the config schema.
    for (const key of [...CONFIG_KEYS, "COOKIE_SECURE"]) {
      expect(Object.keys(example), `.env.example lacks ${key}`).toContain(key);
      // A row of the settings table (the formatter pads the cells).
      expect(readme, `README lacks ${key}`).toMatch(new RegExp(`^\\| \`${key}\` +\\|`, "m"));
    }
  });

  it(".env.example as it is gives exactly the defaults", () => {
    const { COOKIE_SECURE, ...example } = envExample();
    expect(COOKIE_SECURE).toBe("false");
    expect(readConfig(example)).toEqual(readConfig({}));
  });

  it("an empty value means the default, and a bad one stops the server with its name", () => {
    expect(readConfig({ SMTP_URL: "", PUBLIC_PORT: "", SECRET_KEY: "" }).PUBLIC_PORT).toBeUndefined();
    expect(() => readConfig({ PORT: "seventy" })).toThrow(/PORT/);
  });
});
