import { describe, expect, it } from "vitest";
import { ssoDriverSchema } from "~/models/sso/drivers.server";
import { makeSecretBox } from "~/models/sso/seal.server";

describe("sealed secrets", () => {
  const box = makeSecretBox(Buffer.from("a-server-key-of-at-least-32-characters!!"));

  it("open what they sealed, for the same organization only", () => {
    const sealed = box.seal("client-secret", "sso:org-1");
    expect(sealed).not.toContain("client-secret");
    expect(sealed.startsWith("v1.")).toBe(true);
    expect(box.open(sealed, "sso:org-1")).toBe("client-secret");
    expect(box.open(sealed, "sso:org-2")).toBeNull();
    expect(box.seal("client-secret", "sso:org-1")).not.toBe(sealed); // a fresh IV each time
  });

  it("do not open under another server key, or when tampered with", () => {
    const sealed = box.seal("client-secret", "sso:org-1");
    expect(makeSecretBox(Buffer.from("another-server-key-of-32-characters!!!!")).open(sealed, "sso:org-1")).toBeNull();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("forged").toString("base64url");
    expect(box.open(parts.join("."), "sso:org-1")).toBeNull();
    expect(box.open("not sealed", "sso:org-1")).toBeNull();
  });
});

describe("driver settings", () => {
  const base = {
    kind: "oidc",
    slug: "Company",
    label: "Continue with Company",
    clientId: "id",
    clientSecret: "s",
    issuer: "https://id.example.com/",
  };

  it("needs the issuer for OpenID Connect and the three addresses for OAuth2", () => {
    expect(ssoDriverSchema.safeParse(base).success).toBe(true);
    expect(ssoDriverSchema.parse(base).slug).toBe("company");
    const noIssuer = ssoDriverSchema.safeParse({ ...base, issuer: "" });
    expect(noIssuer.success ? [] : noIssuer.error.issues.map((i) => i.path[0])).toEqual(["issuer"]);
    const oauth = ssoDriverSchema.safeParse({ ...base, kind: "oauth2", issuer: "" });
    expect(oauth.success ? [] : oauth.error.issues.map((i) => i.path[0]).sort()).toEqual(["authorizationUrl", "tokenUrl", "userinfoUrl"]);
  });

  it("refuses addresses that are not http(s), slugs that are not address-safe, and odd claims", () => {
    const bad = ssoDriverSchema.safeParse({ ...base, issuer: "javascript:alert(1)", slug: "a b", emailClaim: "e mail" });
    expect(bad.success ? [] : bad.error.issues.map((i) => i.message).sort()).toEqual([
      "sso.errors.claim",
      "sso.errors.slug",
      "sso.errors.url",
    ]);
    expect(ssoDriverSchema.safeParse({ ...base, slug: "callback" }).success).toBe(false);
    expect(ssoDriverSchema.safeParse({ ...base, issuer: "https://user:pw@id.example.com" }).success).toBe(false);
  });

  it("reads checkboxes and group lists as forms send them", () => {
    const parsed = ssoDriverSchema.parse({ ...base, createUsers: "on", defaultGroupIds: ["2", "3"] });
    expect(parsed).toMatchObject({
      createUsers: true,
      managedExternally: false,
      linkByEmail: false,
      defaultGroupIds: [2, 3],
      defaultRole: "learner",
    });
  });
});
