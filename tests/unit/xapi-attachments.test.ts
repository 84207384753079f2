import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkAttachments, SIGNATURE } from "~/models/xapi/attachments";
import { mixedBoundary, parseMultipart, type AttachmentPart } from "~/models/xapi/multipart";

/**
 * Statements sent with attachments (issue 47; docs/decisions/043-learning-record-store.md, "Attachments"): the
 * multipart body read as ADL's suite sends it, each part's hash checked, parts and attachments matched, and
 * signatures checked as xAPI asks (RS256/384/512, the payload the statement, the certificate's signature).
 */
const FIXTURES = path.join(__dirname, "..", "fixtures", "xapi");
const KEY = fs.readFileSync(path.join(FIXTURES, "signer-key.pem"), "utf8");
const CERT = fs.readFileSync(path.join(FIXTURES, "signer-cert.pem"), "utf8");
const sha256 = (data: Buffer | string) => crypto.createHash("sha256").update(data).digest("hex");
const STATEMENT = {
  id: "6e4f3c2a-1b0d-4e9f-8a7b-5c4d3e2f1a0b",
  actor: { mbox: "mailto:anna@example.test" },
  verb: { id: "http://adlnet.gov/expapi/verbs/completed" },
  object: { id: "http://acme.localhost/courses/1" },
};

/** A body as ADL's suite builds it: an empty first line, headers without a space after the colon. */
function multipart(boundary: string, statements: unknown, parts: { type: string; data: Buffer; sha2?: string }[]) {
  const chunks: Buffer[] = [
    Buffer.from(`\r\n--${boundary}\r\nContent-Type:application/json\r\n\r\n`),
    Buffer.from(JSON.stringify(statements)),
  ];
  for (const part of parts)
    chunks.push(
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Type:${part.type}\r\nContent-Transfer-Encoding:binary\r\nX-Experience-API-Hash:${part.sha2 ?? sha256(part.data)}\r\n\r\n`,
      ),
      part.data,
    );
  chunks.push(Buffer.from(`\r\n--${boundary}--`));
  return Buffer.concat(chunks);
}

function jws(payload: unknown, { alg = "RS256", x5c = false, tamper = false } = {}) {
  const header: Record<string, unknown> = { alg };
  if (x5c) header.x5c = [new crypto.X509Certificate(CERT).raw.toString("base64")];
  const signingInput = `${Buffer.from(JSON.stringify(header)).toString("base64url")}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}`;
  const hash = { RS256: "sha256", RS384: "sha384", RS512: "sha512" }[alg] ?? "sha256";
  const signature = alg.startsWith("RS")
    ? crypto.sign(hash, Buffer.from(signingInput), KEY)
    : crypto.createHmac("sha256", "secret").update(signingInput).digest();
  if (tamper) signature[0] ^= 1;
  return Buffer.from(`${signingInput}.${signature.toString("base64url")}`);
}

/** The statement with its signature attached, and the signature's part. */
function signed(options: Parameters<typeof jws>[1] = {}, payload: unknown = STATEMENT) {
  const data = jws(payload, options);
  const statement = {
    ...STATEMENT,
    attachments: [
      {
        usageType: SIGNATURE,
        display: { "en-US": "Signed" },
        contentType: "application/octet-stream",
        length: data.length,
        sha2: sha256(data),
      },
    ],
  };
  const parts: AttachmentPart[] = [{ contentType: "application/octet-stream", sha2: sha256(data), data }];
  return { statement, parts };
}

describe("multipart statements", () => {
  it("finds the boundary, quoted or not, only of multipart/mixed", () => {
    expect(mixedBoundary("multipart/mixed; boundary=abc123")).toBe("abc123");
    expect(mixedBoundary('Multipart/Mixed;boundary="a b"')).toBe("a b");
    expect(mixedBoundary("multipart/form-data; boundary=abc")).toBeNull();
    expect(mixedBoundary("multipart/mixed")).toBeNull();
  });

  it("reads the statements and each part, checking each part's hash", () => {
    const data = Buffer.from("a certificate's bytes\r\n--not a boundary, nor is --b0undary mid-line");
    const parsed = parseMultipart(multipart("b0undary", [STATEMENT], [{ type: "text/plain", data }]), "b0undary");
    expect(parsed).toEqual({ ok: true, statements: [STATEMENT], parts: [{ contentType: "text/plain", sha2: sha256(data), data }] });
    expect(parseMultipart(multipart("b", [STATEMENT], [{ type: "text/plain", data, sha2: sha256("other") }]), "b")).toMatchObject({
      ok: false,
    });
    expect(parseMultipart(multipart("b", [STATEMENT], []).subarray(0, -4), "b")).toMatchObject({ ok: false });
    expect(parseMultipart(Buffer.from("\r\n--b\r\nContent-Type:text/plain\r\n\r\n{}\r\n--b--"), "b")).toMatchObject({ ok: false });
    expect(parseMultipart(Buffer.from("\r\n--b\r\nContent-Type:application/json\r\n\r\n{nope\r\n--b--"), "b")).toMatchObject({ ok: false });
  });

  it("matches attachments and parts: none missing, none left over; a fileUrl needs no part", () => {
    const data = Buffer.from("bytes");
    const attachment = {
      usageType: "http://example.test/usage",
      display: { en: "x" },
      contentType: "text/plain",
      length: 5,
      sha2: sha256(data),
    };
    const part = { contentType: "text/plain", sha2: sha256(data), data };
    expect(checkAttachments([{ ...STATEMENT, attachments: [attachment] }], [part])).toBeNull();
    expect(checkAttachments([{ ...STATEMENT, attachments: [attachment] }], [])).toMatch(/without its part/);
    expect(checkAttachments([STATEMENT], [part])).toMatch(/no attachment names/);
    expect(checkAttachments([{ ...STATEMENT, attachments: [{ ...attachment, fileUrl: "http://example.test/f" }] }], [])).toBeNull();
  });
});

describe("signed statements", () => {
  it.each(["RS256", "RS384", "RS512"])("accept %s over the statement as it was signed", (alg) => {
    const { statement, parts } = signed({ alg });
    expect(checkAttachments([statement], parts)).toBeNull();
  });

  it("compare the payload as statements are compared: a duration beyond hundredths does not count", () => {
    const { statement, parts } = signed({}, { ...STATEMENT, result: { duration: "PT1.12S" } });
    expect(checkAttachments([{ ...statement, result: { duration: "PT1.1237S" } }], parts)).toBeNull();
  });

  it("verify with the certificate the signature carries, and refuse a signature that does not verify", () => {
    const good = signed({ x5c: true });
    expect(checkAttachments([good.statement], good.parts)).toBeNull();
    const bad = signed({ x5c: true, tamper: true });
    expect(checkAttachments([bad.statement], bad.parts)).toMatch(/does not verify/);
  });

  it("refuse another algorithm, a payload that is not the statement, and what is no JWS", () => {
    const hs = signed({ alg: "HS256" });
    expect(checkAttachments([hs.statement], hs.parts)).toMatch(/RS256/);
    const other = signed({}, { ...STATEMENT, verb: { id: "http://adlnet.gov/expapi/verbs/failed" } });
    expect(checkAttachments([other.statement], other.parts)).toMatch(/not the statement/);
    const garbage = Buffer.from("not.a.jws!");
    const { statement } = signed();
    statement.attachments[0].sha2 = sha256(garbage);
    expect(checkAttachments([statement], [{ contentType: "application/octet-stream", sha2: sha256(garbage), data: garbage }])).toMatch(
      /compact/,
    );
  });
});
