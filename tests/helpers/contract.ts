import type { ZodTypeAny } from "zod";
import type { ApiCall } from "~/api/contract.server";
import { loadBuild } from "./built-app";
import type { HttpResponse } from "./http";

/** The contract as the build under test holds it (app/entry.server.tsx), loaded by Node as the server loads it. */
interface BuiltContract {
  API_CALLS: typeof import("~/api/calls/index.server").API_CALLS;
  errorEnvelope: typeof import("~/api/contract.server").errorEnvelope;
  okEnvelope: typeof import("~/api/contract.server").okEnvelope;
  isFileReply: typeof import("~/api/openapi.server").isFileReply;
}
const { API_CALLS, errorEnvelope, okEnvelope, isFileReply } = (await loadBuild()).entry.module as unknown as BuiltContract;

/**
 * Holds a real /api reply to its contract (docs/decisions/023-openapi-and-logs.md): `api()` in
 * tests/helpers/auth.ts calls this for every reply the integration tests get, so a reply that drifts from
 * its description fails the test that saw it.
 */
const matchers = API_CALLS.map((call) => ({
  call,
  pattern: new RegExp(`^${call.path.replace(/\{\w+\}/g, "[^/]+").replace(/\./g, "\\.")}$`),
  params: (call.path.match(/\{/g) ?? []).length,
}))
  // A fixed segment wins over a parameter (`/api/courses/search` before `/api/courses/{id}`), as in Remix.
  .sort((a, b) => a.params - b.params);

/** Replies any call may get from the layers in front of it (limits, size, a foreign site, a broken organization). */
const FRONT: Array<[number, string]> = [
  [400, "invalid"],
  [403, "cross_site"],
  [404, "not_found"],
  [405, "method_not_allowed"],
  [413, "too_large"],
  [429, "too_many_requests"],
  [503, "unavailable"],
];

export function contractFor(method: string, pathname: string): ApiCall | undefined {
  return matchers.find((m) => m.call.method === method && m.pattern.test(pathname))?.call;
}

function problems(schema: ZodTypeAny, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}

export function checkReply(method: string, path: string, res: HttpResponse) {
  const pathname = path.split("?")[0];
  const call = contractFor(method.toUpperCase(), pathname);
  const where = `${method} ${path} → ${res.status}`;
  const type = String(res.headers["content-type"] ?? "");
  if (res.status >= 300 && res.status < 400) return; // a form post sent back to its page
  if (res.status >= 400) {
    if (!type.includes("application/json")) throw new Error(`${where}: an error outside the envelope (${type})\n${res.body.slice(0, 300)}`);
    const body = res.json();
    const wrong = problems(errorEnvelope, body);
    if (wrong) throw new Error(`${where}: not the error envelope: ${wrong}\n${res.body.slice(0, 300)}`);
    const code = body.payload.code as string;
    const declared = (call?.errors ?? []).some((e) => e.status === res.status && e.code === code);
    const front = FRONT.some(([s, c]) => s === res.status && c === code);
    // Several errors are documented under one line ("also `x`"): the code must at least be named in the call's contract.
    const named = (call?.errors ?? []).some((e) => e.status === res.status && e.when.includes(`\`${code}\``));
    if (!declared && !front && !named) {
      throw new Error(`${where}: error code \`${code}\` is not in the contract of ${call ? `${call.method} ${call.path}` : "any call"}`);
    }
    return;
  }
  if (!call) throw new Error(`${where}: a success from a call with no contract`);
  if (isFileReply(call.reply)) {
    if (!type.startsWith(call.reply.file)) throw new Error(`${where}: expected a ${call.reply.file} file, got ${type}`);
    return;
  }
  const schema = (call.status ?? 200) === res.status ? call.reply : call.otherReplies?.find((o) => o.status === res.status)?.reply;
  if (!schema) throw new Error(`${where}: status ${res.status} is not a success of ${call.method} ${call.path}`);
  const wrong = problems(okEnvelope(schema), res.json());
  if (wrong) throw new Error(`${where}: the reply does not match its contract: ${wrong}\n${res.body.slice(0, 500)}`);
}
