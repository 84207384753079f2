import { extendZodWithOpenApi, OpenApiGeneratorV31, OpenAPIRegistry, type ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z, type ZodTypeAny } from "zod";
import { errorEnvelope, okEnvelope, pathParams, type ApiCall } from "./contract.server";

// The generator reads its metadata through `.openapi()`, which this adds to zod's classes (nothing else changes).
extendZodWithOpenApi(z);

export function isFileReply(reply: ApiCall["reply"]): reply is { file: string } {
  return typeof reply === "object" && reply !== null && "file" in reply && typeof (reply as { file: unknown }).file === "string";
}

export function accessText(access: ApiCall["access"]) {
  switch (access) {
    case "public":
      return "Anyone (no sign-in)";
    case "signed-in":
      return "Anyone signed in here (a token or a session)";
    case "session":
      return "A signed-in person's own sign-in (a session token, not an API token)";
    case "super-admin":
      return "Super-admins, on the platform host";
    default:
      return `Capability \`${access}\``;
  }
}

export function operationId(call: ApiCall) {
  const words = call.path
    .replace(/^\/api\//, "")
    .split(/[/.\-_]/)
    .filter(Boolean)
    .map((w) => (w.startsWith("{") ? `By${w.slice(1, 2).toUpperCase()}${w.slice(2, -1)}` : w));
  return [call.method.toLowerCase(), ...words.map((w) => w[0].toUpperCase() + w.slice(1))].join("");
}

type Document = ReturnType<OpenApiGeneratorV31["generateDocument"]>;
const made = new WeakMap<readonly ApiCall[], Document>();

/** The OpenAPI 3.1 description of the declared calls (app/api/calls/), made once per list. */
export function openApiDocument(calls: readonly ApiCall[]): Document {
  const kept = made.get(calls);
  if (kept) return kept;
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "A token from `POST /api/auth/login` (30 days) or an API token made by an admin.",
  });
  registry.registerComponent("securitySchemes", "session", {
    type: "apiKey",
    in: "cookie",
    name: "lectern_session",
    description: "The browser's session cookie (posts must come from the same site).",
  });
  const apiError = registry.register("ApiError", errorEnvelope);
  const envelopeNote =
    "Replies come in the envelope `{ payload, status }`; failures in `{ error: true, payload: { message, code, fields? }, status }` with the same HTTP status. Messages are in the caller's language (`Accept-Language` or the person's setting).";
  for (const call of calls) {
    const status = call.status ?? 200;
    const responses: Record<number, ResponseConfig> = {};
    if (isFileReply(call.reply)) {
      responses[status] = { description: "the file", content: { [call.reply.file]: { schema: { type: "string" } } } };
    } else {
      responses[status] = {
        description: "success",
        content: {
          "application/json": {
            schema: okEnvelope(call.reply),
            ...(call.example.reply !== undefined ? { example: { payload: call.example.reply, status } } : {}),
          },
        },
      };
    }
    for (const other of call.otherReplies ?? []) {
      responses[other.status] = { description: other.description, content: { "application/json": { schema: okEnvelope(other.reply) } } };
    }
    const byStatus = new Map<number, string[]>();
    for (const e of call.errors) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), `\`${e.code}\`: ${e.when}`]);
    for (const [errorStatus, lines] of byStatus) {
      responses[errorStatus] = { description: lines.join("; "), content: { "application/json": { schema: apiError } } };
    }
    const body = call.body as ZodTypeAny | undefined;
    registry.registerPath({
      method: call.method.toLowerCase() as "get" | "post" | "put" | "delete",
      path: call.path,
      operationId: operationId(call),
      tags: [call.tag],
      summary: call.summary,
      description: [call.description, `**Who:** ${accessText(call.access)}.`].filter(Boolean).join("\n\n"),
      ...(call.access === "public" ? { security: [] } : { security: [{ bearer: [] }, { session: [] }] }),
      "x-capability": call.access,
      "x-error-codes": call.errors.map((e) => e.code),
      request: {
        params: pathParams(call.path),
        query: call.query,
        ...(body
          ? {
              body: {
                required: true,
                content: {
                  [call.bodyType ?? "application/json"]: {
                    schema: body,
                    ...(call.example.body !== undefined ? { example: call.example.body } : {}),
                  },
                },
              },
            }
          : {}),
      },
      responses,
    } as Parameters<OpenAPIRegistry["registerPath"]>[0]);
  }
  const generator = new OpenApiGeneratorV31(registry.definitions);
  const document = generator.generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Lectern API",
      version: "1",
      description: `The /api of a Lectern organization: each organization answers on its own host. ${envelopeNote} Rate limits show in \`RateLimit-*\` headers; a 429 carries \`Retry-After\`.`,
    },
    servers: [{ url: "/", description: "the organization's (or the platform's) own host" }],
  });
  made.set(calls, document);
  return document;
}
