import { Writable } from "node:stream";
import { lazy, Suspense, type ReactElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderPage } from "~/utils/render-page.server";
import { PageReply, pageBody } from "~/utils/page-body";

/** What every page was before renderPage: React's streaming renderer, collected once everything is ready. */
function streamed(element: ReactElement) {
  return new Promise<string>((resolve, reject) => {
    const { pipe } = renderToPipeableStream(element, {
      onAllReady() {
        const chunks: Buffer[] = [];
        pipe(
          new Writable({
            write(chunk: Buffer, _e, done) {
              chunks.push(chunk);
              done();
            },
            final(done) {
              resolve(Buffer.concat(chunks).toString("utf8"));
              done();
            },
          }),
        );
      },
      onShellError: reject,
      onError: () => {},
    });
  });
}

function Document({ children }: { children: ReactElement }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <title>Lessons &amp; more</title>
      </head>
      <body>
        <main>{children}</main>
        <script nonce="n0nce" dangerouslySetInnerHTML={{ __html: "window.__x = 1 < 2;" }} />
      </body>
    </html>
  );
}

const options = (status = 200) => ({ headers: new Headers({ "X-Kept": "yes" }), status, nonce: "n0nce" });

afterEach(() => vi.restoreAllMocks());

describe("renderPage", () => {
  it("answers a finished page with the same bytes as the streaming renderer, its length and the given status", async () => {
    const page = () => (
      <Document>
        <ul>
          {["Første", "Ånd & <krop>", "Émile"].map((title, i) => (
            <li key={title} data-i={i}>
              {title} {i} of {3}
            </li>
          ))}
        </ul>
      </Document>
    );
    const reply = await renderPage(page, options(404));
    const body = await reply.text();
    expect(body).toBe(await streamed(page()));
    expect(body.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
    expect(body).toContain("Ånd &amp; &lt;krop&gt;");
    expect(reply.status).toBe(404);
    expect(reply.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(reply.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
    expect(reply.headers.get("x-kept")).toBe("yes");
  });

  it("renders a page in full when a lazily loaded part has not arrived yet, instead of sending its fallback", async () => {
    let loads = 0;
    const Player = lazy(async () => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { default: () => <video controls src="/clip.mp4" /> };
    });
    const page = () => (
      <Document>
        <Suspense fallback={<p>Loading the player…</p>}>
          <Player />
        </Suspense>
      </Document>
    );
    const first = await (await renderPage(page, options())).text();
    expect(first).toContain('<video controls="" src="/clip.mp4"></video>');
    expect(first).not.toContain("Loading the player");
    expect(first).not.toContain("<!--$!-->");
    // Once loaded, the string renderer finishes the page on its own, with the same bytes.
    const second = await (await renderPage(page, options())).text();
    expect(second).toBe(first);
    expect(loads).toBe(1);
  });

  it("answers 500 with the boundary's fallback when a part inside a boundary fails, as the streaming renderer did", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const Broken = (): ReactElement => {
      throw new Error("broken part");
    };
    const page = () => (
      <Document>
        <Suspense fallback={<p>Could not show this part</p>}>
          <Broken />
        </Suspense>
      </Document>
    );
    const reply = await renderPage(page, options());
    expect(reply.status).toBe(500);
    expect(await reply.text()).toContain("Could not show this part");
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ message: "broken part" }));
  });

  it("rejects when the page itself fails outside any boundary, so Remix renders its error page", async () => {
    const Broken = (): ReactElement => {
      throw new Error("broken page");
    };
    await expect(
      renderPage(
        () => (
          <Document>
            <Broken />
          </Document>
        ),
        options(),
      ),
    ).rejects.toThrow("broken page");
  });
});

describe("PageReply", () => {
  const bytes = () => Buffer.from("<!DOCTYPE html><html><body><p>Hej · ünïcode</p></body></html>");
  const make = () =>
    new PageReply(bytes(), { headers: new Headers({ "Content-Type": "text/html; charset=utf-8", "X-Extra": "1" }), status: 404 });

  it("keeps the page's bytes for the server to write, until someone reads the body", async () => {
    const reply = make();
    expect(pageBody(reply)?.equals(bytes())).toBe(true);
    expect(reply.bodyUsed).toBe(false);
    expect(await reply.text()).toBe(bytes().toString("utf8"));
    expect(reply.bodyUsed).toBe(true);
    expect(pageBody(reply)).toBeNull();
    await expect(reply.text()).rejects.toThrow(TypeError);
  });

  it("reads like an ordinary Response: status, headers, body stream, bytes and clones", async () => {
    const reply = make();
    const ordinary = new Response(bytes(), {
      headers: new Headers({ "Content-Type": "text/html; charset=utf-8", "X-Extra": "1" }),
      status: 404,
    });
    expect(reply).toBeInstanceOf(Response);
    expect(reply.status).toBe(ordinary.status);
    expect([...reply.headers]).toEqual([...ordinary.headers]);
    expect(Buffer.from(await reply.clone().arrayBuffer()).equals(bytes())).toBe(true);
    expect(Buffer.from(await new Response(reply.body).arrayBuffer()).equals(bytes())).toBe(true);
    expect(await (await make().blob()).text()).toBe(await ordinary.clone().text());
  });
});
