import { describe, expect, it } from "vitest";
import { jsonReply, jsonReplyText } from "~/utils/json-reply";

/** A JsonReply (app/utils/json-reply.ts) is, to anyone who reads it, the Response that Response.json makes. */
describe("jsonReply", () => {
  const data = { payload: { name: "Zoë's course", tags: ["a", "b"], n: 3 }, status: 201 };

  it("has Response.json's status, headers and bytes", async () => {
    const ours = jsonReply(data, { status: 201, headers: { "X-Extra": "yes" } });
    const theirs = Response.json(data, { status: 201, headers: { "X-Extra": "yes" } });
    expect(ours).toBeInstanceOf(Response);
    expect(ours.status).toBe(201);
    expect([...ours.headers]).toEqual([...theirs.headers]);
    expect(await ours.text()).toBe(await theirs.text());
  });

  it("reads as JSON, as a stream, and only once", async () => {
    const reply = jsonReply(data);
    expect(reply.bodyUsed).toBe(false);
    expect(jsonReplyText(reply)).toBe(JSON.stringify(data));
    expect(await reply.json()).toEqual(data);
    expect(reply.bodyUsed).toBe(true);
    // Read once, its text is no longer offered to the server, and a second read fails as on any Response.
    expect(jsonReplyText(reply)).toBeNull();
    await expect(reply.text()).rejects.toThrow(TypeError);

    const streamed = jsonReply(data);
    const text = await new Response(streamed.body).text();
    expect(JSON.parse(text)).toEqual(data);
    expect(streamed.bodyUsed).toBe(true);
  });

  it("clones with the same status, headers and body, and keeps a caller's content type", async () => {
    const reply = jsonReply(data, { status: 202, headers: { "Content-Type": "application/ld+json" } });
    const copy = reply.clone();
    expect(copy.status).toBe(202);
    expect(copy.headers.get("content-type")).toBe("application/ld+json");
    expect(await copy.json()).toEqual(data);
    expect(await reply.json()).toEqual(data);
  });

  it("refuses a status that cannot carry a body, as Response.json does", () => {
    for (const status of [204, 205, 304]) {
      expect(() => jsonReply({}, { status })).toThrow(TypeError);
      expect(() => Response.json({}, { status })).toThrow(TypeError);
    }
  });

  it("refuses a value with no JSON form, as Response.json does", () => {
    expect(() => jsonReply(undefined)).toThrow(TypeError);
    expect(() => Response.json(undefined)).toThrow(TypeError);
  });

  it("is not mistaken for a JsonReply when it is an ordinary Response", () => {
    expect(jsonReplyText(Response.json(data))).toBeNull();
  });
});

describe("kept bodies answer every body method of Response (app/utils/kept-body.ts)", () => {
  const data = { name: "Zoë", n: 3 };
  const bodyMethods = ["arrayBuffer", "blob", "bytes", "formData", "json", "text"];

  it("Response's body methods are the ones answered (a new one would read an empty body)", () => {
    const methods = Object.getOwnPropertyNames(Response.prototype).filter(
      (name) =>
        name !== "constructor" &&
        name !== "clone" &&
        typeof Object.getOwnPropertyDescriptor(Response.prototype, name)?.value === "function",
    );
    expect(methods.sort()).toEqual(bodyMethods);
    const reply = jsonReply(data);
    for (const name of bodyMethods)
      expect(
        Object.prototype.hasOwnProperty.call(Object.getPrototypeOf(reply), name) ||
          Object.prototype.hasOwnProperty.call(Object.getPrototypeOf(Object.getPrototypeOf(reply)), name),
        name,
      ).toBe(true);
  });

  it("bytes() gives the body, and a clone carries headers set after the body was first read", async () => {
    const reply = jsonReply(data);
    expect(new TextDecoder().decode(await reply.clone().bytes())).toBe(JSON.stringify(data));
    reply.headers.set("X-Late", "1");
    const copy = reply.clone();
    expect(copy.headers.get("x-late")).toBe("1");
    expect(await copy.json()).toEqual(data);
    expect(new TextDecoder().decode(await reply.bytes())).toBe(JSON.stringify(data));
    expect(reply.bodyUsed).toBe(true);
  });
});
