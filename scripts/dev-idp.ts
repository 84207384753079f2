import { startIdp } from "./idp/provider";

/**
 * `npm run dev:idp`: a real OpenID Connect provider on http://localhost:9400 for trying SSO by hand
 * (README "Single sign-on"). Its client `lectern-demo` (secret `lectern-demo-secret`) accepts the demo
 * organizations' callback addresses on ports 3000 and 5173; the demo seed configures Acme's driver for it.
 * Sign in with any login and password.
 */
const port = Number(process.env.IDP_PORT ?? 9400);
const appPorts = (process.env.IDP_APP_PORTS ?? "3000,5173").split(",").map((p) => p.trim());
const hosts = (process.env.IDP_APP_HOSTS ?? "acme.localhost,nordlys.localhost").split(",").map((h) => h.trim());
const redirectUris = hosts.flatMap((host) =>
  appPorts.flatMap((p) => [`http://${host}:${p}/auth/sso/demo-idp/callback`, `http://${host}:${p}/api/auth/sso/demo-idp/callback-raw`]),
);

const idp = await startIdp({
  port,
  host: "127.0.0.1",
  publicHost: "localhost",
  clients: [{ client_id: "lectern-demo", client_secret: "lectern-demo-secret", redirect_uris: redirectUris }],
});
console.log(
  JSON.stringify({ msg: "test identity provider listening", issuer: idp.issuer, client_id: "lectern-demo", redirect_uris: redirectUris }),
);
process.on("SIGINT", () => idp.close().then(() => process.exit(0)));
process.on("SIGTERM", () => idp.close().then(() => process.exit(0)));
