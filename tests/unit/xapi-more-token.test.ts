import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { moreToken, readMoreToken, type Signer } from "~/models/xapi/more-token";

/** The `more` token of GET /xapi/statements (issue 47): read back as written, and refused forged or elsewhere. */
const secret = crypto.randomBytes(32);
const signer: Signer = {
  signValue: (purpose, value) => crypto.createHmac("sha256", secret).update(`${purpose}:${value}`).digest("base64url"),
  verifyValue: (purpose, value, signature) => signer.signValue(purpose, value) === signature,
};
const PAGE = { query: { verb: "http://adlnet.gov/expapi/verbs/completed", limit: "3" }, cursor: { after: 41, mark: 77 } };

describe("more tokens", () => {
  it("carry the query and the cursor for the organization and credential that asked", () => {
    const token = moreToken(signer, 1, 5, PAGE);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(readMoreToken(signer, 1, 5, token)).toEqual(PAGE);
  });

  it("are refused forged, altered, too long, or for another organization or credential", () => {
    const token = moreToken(signer, 1, 5, PAGE);
    const [payload, signature] = token.split(".");
    const altered = Buffer.from(JSON.stringify({ o: 1, c: 5, q: {}, a: 0, m: 1_000_000 })).toString("base64url");
    for (const bad of [
      `${altered}.${signature}`,
      `${payload}.${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`,
      payload,
      `${token}.x`,
      "",
      "a".repeat(9000),
    ])
      expect(readMoreToken(signer, 1, 5, bad), bad.slice(0, 40)).toBeNull();
    expect(readMoreToken(signer, 2, 5, token)).toBeNull();
    expect(readMoreToken(signer, 1, 6, token)).toBeNull();
  });
});
