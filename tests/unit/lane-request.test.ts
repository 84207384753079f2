import { describe, expect, it } from "vitest";
import { LaneRequest } from "../../server/lane-request";

/** The /api lane's Request (server/lane-request.ts) reads as the Request Remix would have built. */
describe("LaneRequest", () => {
  const url = "http://acme.localhost/api/things?x=1";
  const headers = () => new Headers({ "content-type": "application/json", authorization: "Bearer t" });

  it("is a Request with the method, address and headers given", () => {
    const request = new LaneRequest(url, "GET", headers(), null);
    expect(request).toBeInstanceOf(Request);
    expect(request.method).toBe("GET");
    expect(request.url).toBe(url);
    expect(request.headers.get("authorization")).toBe("Bearer t");
    expect(request.body).toBeNull();
  });

  it("reads a JSON body once; a second read fails as on any Request", async () => {
    const request = new LaneRequest(url, "POST", headers(), Buffer.from('\uFEFF{"lesson_id":7,"name":"Zoë"}'));
    expect(request.bodyUsed).toBe(false);
    // The byte-order mark is dropped, as the Fetch standard's UTF-8 decode drops it.
    expect(await request.json()).toEqual({ lesson_id: 7, name: "Zoë" });
    expect(request.bodyUsed).toBe(true);
    await expect(request.text()).rejects.toThrow(TypeError);
    await expect(request.formData()).rejects.toThrow(TypeError);
    await expect(request.blob()).rejects.toThrow(TypeError);
    expect(() => request.clone()).toThrow(TypeError);
  });

  it("gives the same text, bytes, form and stream as an ordinary Request", async () => {
    const body = "a=1&b=two+words&b=%C3%A9";
    const make = () =>
      new LaneRequest(url, "POST", new Headers({ "content-type": "application/x-www-form-urlencoded" }), Buffer.from(body));
    const plain = () => new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
    expect(await make().text()).toBe(await plain().text());
    expect(Buffer.from(await make().arrayBuffer())).toEqual(Buffer.from(await plain().arrayBuffer()));
    const form = await make().formData();
    expect(form.getAll("b")).toEqual(["two words", "é"]);
    expect(await new Response(make().body).text()).toBe(body);
    const original = make();
    const copy = original.clone();
    expect(await copy.text()).toBe(body);
    expect(await original.text()).toBe(body);
  });

  it("makes its signal on first use and aborts it when the connection closes early, before or after", () => {
    const early = new LaneRequest(url, "GET", headers(), null);
    const signal = early.signal;
    expect(signal.aborted).toBe(false);
    early.abort();
    expect(signal.aborted).toBe(true);

    const late = new LaneRequest(url, "GET", headers(), null);
    late.abort();
    expect(late.signal.aborted).toBe(true);
  });
});
