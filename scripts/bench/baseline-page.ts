import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { json, type AppLoadContext, type EntryContext, type ServerBuild } from "@remix-run/node";
import { Outlet, RemixServer, Scripts } from "@remix-run/react";
import express from "express";
import { createElement, Fragment, type ReactNode } from "react";
import { renderPage } from "../../app/utils/render-page.server";
import { documents } from "../../server/documents";
import { pageElements } from "./render-floor";

/**
 * A floor for a signed-in page's row of `npm run bench` (docs/decisions/014-speed.md, "How it is measured"): the
 * least a Remix v2 app can do to serve that page on this stack. Express and Lectern's own lane into Remix
 * (server/documents.ts, cheaper than Remix's Express adapter, handing Remix only the routes the path can
 * match: server/route-partitions.ts) serve Lectern's built app, with its route table and assets manifest,
 * but the page's two routes (root and the page's own) are swapped for stand-ins: their loaders answer the
 * data the real page's loaders answered for one learner (kept, no database, no session), and their
 * components are the real page's markup as plain React elements (no components, hooks or translations;
 * Remix's `<Scripts>` hands the data to the browser as the real page does). Every request gets that one
 * page. The document is rendered as Lectern renders it (app/utils/render-page.server.tsx: `renderToString`,
 * the bytes written as they are), without a nonce, translator or card store. There are no security
 * headers, tenancy, compression, rate limits or request ids.
 *
 * `PAGE_FILE` holds the real page's HTML; its route is the one beside the root whose data it carries.
 */
const html = fs.readFileSync(process.env.PAGE_FILE!, "utf8");
const context = html.match(/window\.__remixContext = (.*?);<\/script>/s);
if (!context) throw new Error("the page has no Remix context");
const loaderData = (JSON.parse(context[1]) as { state: { loaderData: Record<string, unknown> } }).state.loaderData;
const routeIds = Object.keys(loaderData);
if (routeIds.length !== 2 || routeIds[0] !== "root") throw new Error(`expected the root and one page route, got ${routeIds.join(", ")}`);
const pageRoute = routeIds[1];

let mainChildren: ReactNode[] = [];
const { head, body } = await pageElements(html, (tag, element, convert) => {
  // Remix writes its own scripts and module links; the page's part is rendered by the page's route.
  if (
    tag === "script" ||
    (tag === "link" && element.attributes && Array.from(element.attributes).some((a) => a.name === "rel" && a.value === "modulepreload"))
  )
    return null;
  if (tag === "main") {
    mainChildren = Array.from(element.childNodes).map(convert);
    const props = Object.fromEntries(Array.from(element.attributes).map((a) => [a.name === "class" ? "className" : a.name, a.value]));
    return createElement("main", props, createElement(Outlet));
  }
  return undefined;
});
const children = (element: ReactNode) => (element as { props: { children?: ReactNode } }).props.children;
const lang = html.match(/<html lang="([^"]+)"/)?.[1] ?? "en";

const real = (await import(path.resolve(import.meta.dirname, "../../build/index.js"))) as ServerBuild;
const build: ServerBuild = {
  ...real,
  entry: {
    module: {
      default: (request: Request, status: number, headers: Headers, remixContext: EntryContext) =>
        renderPage(() => createElement(RemixServer, { context: remixContext, url: request.url }), { headers, status }),
    },
  },
  routes: {
    ...real.routes,
    root: {
      ...real.routes.root,
      module: {
        loader: () => json(loaderData.root),
        default: () =>
          createElement(
            "html",
            { lang },
            createElement("head", null, children(head)),
            createElement("body", null, children(body), createElement(Scripts)),
          ),
      },
    },
    [pageRoute]: {
      ...real.routes[pageRoute],
      module: { loader: () => json(loaderData[pageRoute]), default: () => createElement(Fragment, null, ...mainChildren) },
    },
  },
};

const app = express();
app.disable("x-powered-by");
app.all(
  "*",
  documents(build, "production", async () => ({}) as AppLoadContext),
);
const server = app.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ msg: "listening", port: (server.address() as AddressInfo).port }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
