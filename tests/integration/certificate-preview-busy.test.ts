import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { insertSession } from "../helpers/sessions";

/**
 * A certificate preview the renderer cannot finish in time (issue 30, defect 12c): the server is given a
 * 100 ms render limit, which no Chromium starts within, so every render times out as one would under load.
 * A template without a background image must not be told to use a smaller one. Acme (organization 1)
 * speaks English.
 */
const ORG = "acme.localhost";
let server: InProcessServer;
let admin: string;

beforeAll(async () => {
  server = await startInProcess({ env: { CERTIFICATE_RENDER_TIMEOUT_MS: "100" } });
  admin = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
});
afterAll(() => server?.stop());

describe("a certificate preview that times out", () => {
  it("says to try again, not to shrink a background image the template does not have", async () => {
    const made = await api(server, ORG, "POST", "certificates/templates", {
      token: admin,
      body: { name: "Plain", layout: { page_size: "a4", orientation: "landscape" } },
    });
    expect(made.status, made.body).toBe(201);
    const template = made.json().payload;
    expect(template.layout.background_file_id).toBeNull();
    const preview = await api(server, ORG, "GET", `certificates/templates/preview?template_id=${template.id}`, {
      token: admin,
      headers: { "Accept-Language": "en" },
    });
    expect(preview.status, preview.body).toBe(503);
    const { code, message } = preview.json().payload;
    expect(code).toBe("render_timeout");
    expect(message).toBe("The certificate could not be made right now. Try again in a moment.");
    expect(message).not.toMatch(/background/i);
  });
});
