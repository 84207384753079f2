import fs from "node:fs";
import { expect, it } from "vitest";
import { apiClientSource, CLIENT_FILE } from "../../scripts/api-client";

it("app/api/client.d.ts is the one the description makes (run `npm run api:client` after changing a contract)", async () => {
  expect(fs.readFileSync(CLIENT_FILE, "utf8") === (await apiClientSource()), "app/api/client.d.ts is stale: run `npm run api:client`").toBe(
    true,
  );
}, 120_000);
