import { renderToStaticMarkup } from "react-dom/server";
import type { ApiCall } from "~/api/contract.server";
import { accessText, isFileReply, openApiDocument, operationId } from "~/api/openapi.server";

/**
 * The /api reference for people (`GET /api/docs`): one server-rendered page, no script, made from the
 * same contracts and OpenAPI document as `/api/openapi.json` (docs/decisions/023-openapi-and-logs.md).
 */
type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  description?: string;
  const?: unknown;
};

function typeText(s: JsonSchema | undefined): string {
  if (!s) return "any";
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return alts.map(typeText).join(" | ");
  if (s.allOf) return s.allOf.map(typeText).join(" & ");
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  return (
    types
      .map((t) => (t === "array" ? `array of ${typeText(s.items)}` : t === "string" && s.format ? `string (${s.format})` : t))
      .join(" | ") || "any"
  );
}

function limits(s: JsonSchema) {
  const parts: string[] = [];
  if (s.minLength !== undefined) parts.push(`≥ ${s.minLength} chars`);
  if (s.maxLength !== undefined) parts.push(`≤ ${s.maxLength} chars`);
  if (s.minimum !== undefined) parts.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) parts.push(`≤ ${s.maximum}`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  if (s.description) parts.push(s.description);
  return parts.join(", ");
}

function Fields({ schema }: { schema: JsonSchema | undefined }) {
  const variants = schema?.anyOf ?? schema?.oneOf;
  if (variants) {
    return (
      <>
        {variants.map((v, i) => (
          <div key={i}>
            {i > 0 ? <p className="or">or</p> : null}
            <Fields schema={v} />
          </div>
        ))}
      </>
    );
  }
  if (!schema?.properties) return <p className="type">{typeText(schema)}</p>;
  const required = new Set(schema.required ?? []);
  return (
    <table>
      <thead>
        <tr>
          <th>Field</th>
          <th>Type</th>
          <th>Notes</th>
        </tr>
      </thead>
      <tbody>
        {Object.entries(schema.properties).map(([name, s]) => (
          <tr key={name}>
            <td>
              <code>{name}</code>
              {required.has(name) ? <span className="req"> required</span> : null}
            </td>
            <td className="type">{typeText(s)}</td>
            <td>{limits(s)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** `code` spans for text written with backticks. */
function Text({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/(`[^`]+`)/)
        .map((part, i) => (part.startsWith("`") && part.endsWith("`") ? <code key={i}>{part.slice(1, -1)}</code> : part))}
    </>
  );
}

interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
}

function Call({ call, operation }: { call: ApiCall; operation: Operation | undefined }) {
  const query = (operation?.parameters ?? []).filter((p) => p.in === "query");
  const bodyType = call.bodyType ?? "application/json";
  const bodySchema = operation?.requestBody?.content[bodyType]?.schema;
  const status = call.status ?? 200;
  const queryString = call.example.query ? `?${new URLSearchParams(call.example.query).toString()}` : "";
  return (
    <section className="call" id={operationId(call)}>
      <h3>
        <span className={`method ${call.method.toLowerCase()}`}>{call.method}</span> <code className="path">{call.path}</code>
      </h3>
      <p className="summary">{call.summary}</p>
      {call.description ? (
        <p>
          <Text text={call.description} />
        </p>
      ) : null}
      <dl className="facts">
        <dt>Who</dt>
        <dd>
          <Text text={accessText(call.access)} />
        </dd>
        <dt>Host</dt>
        <dd>
          {call.host === "platform" ? "the platform's" : call.host === "both" ? "an organization's or the platform's" : "an organization's"}
        </dd>
        <dt>Reply</dt>
        <dd>
          {isFileReply(call.reply) ? (
            <>
              {status} with a <code>{call.reply.file}</code> file (no envelope)
            </>
          ) : (
            <>
              {status} <code>{"{ payload, status }"}</code>
              {(call.otherReplies ?? []).map((o) => (
                <span key={o.status}>
                  ; {o.status}: {o.description}
                </span>
              ))}
            </>
          )}
        </dd>
      </dl>
      {query.length ? (
        <>
          <h4>Query</h4>
          <Fields
            schema={{
              properties: Object.fromEntries(query.map((p) => [p.name, p.schema ?? {}])),
              required: query.filter((p) => p.required).map((p) => p.name),
            }}
          />
        </>
      ) : null}
      {bodySchema ? (
        <>
          <h4>
            Body <span className="muted">({bodyType})</span>
          </h4>
          <Fields schema={bodySchema} />
        </>
      ) : null}
      {call.errors.length ? (
        <>
          <h4>Errors</h4>
          <table>
            <thead>
              <tr>
                <th>Status</th>
                <th>Code</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {call.errors.map((e) => (
                <tr key={`${e.status}${e.code}`}>
                  <td>{e.status}</td>
                  <td>
                    <code>{e.code}</code>
                  </td>
                  <td>
                    <Text text={e.when} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {call.example.body !== undefined || call.example.reply !== undefined ? (
        <>
          <h4>Example</h4>
          <pre>
            {`${call.method} ${call.path}${queryString}`}
            {call.example.body !== undefined
              ? `\n\n${typeof call.example.body === "string" ? call.example.body : JSON.stringify(call.example.body, null, 2)}`
              : ""}
          </pre>
          {call.example.reply !== undefined ? <pre>{JSON.stringify({ payload: call.example.reply, status }, null, 2)}</pre> : null}
        </>
      ) : null}
    </section>
  );
}

const STYLE = `
:root{color-scheme:light dark;--bg:#f7f7fb;--card:#fff;--text:#1b1b29;--muted:#5d5d72;--line:#e3e3ee;--accent:#4f46e5;--code:#f0f0f7}
@media (prefers-color-scheme:dark){:root{--bg:#111119;--card:#1a1a26;--text:#ececf4;--muted:#a3a3b8;--line:#2c2c3d;--accent:#8b85ff;--code:#232334}}
*{box-sizing:border-box}body{margin:0;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;background:var(--bg);color:var(--text)}
a{color:var(--accent)}code,pre{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.9em}
code{background:var(--code);padding:.05em .35em;border-radius:4px}
.layout{display:grid;grid-template-columns:270px 1fr;max-width:1280px;margin:0 auto}
nav{position:sticky;top:0;height:100vh;overflow:auto;padding:24px 16px;border-right:1px solid var(--line)}
nav h2{font-size:.75rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:18px 0 6px}
nav ul{list-style:none;margin:0;padding:0}nav li a{display:block;padding:2px 6px;border-radius:6px;text-decoration:none;color:var(--text);font-size:.85rem;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
nav li a:hover{background:var(--code)}nav .m{display:inline-block;width:4.6em;font-size:.7rem;font-weight:700;color:var(--muted)}
main{padding:32px 40px;min-width:0}header h1{margin:0 0 6px;font-size:1.8rem}.muted{color:var(--muted);font-weight:400}
.intro{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:18px 22px;margin:18px 0 28px}
h2.tag{margin:36px 0 12px;font-size:1.3rem;border-bottom:1px solid var(--line);padding-bottom:6px}
.call{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:18px 22px;margin:0 0 18px}
.call h3{margin:0;font-size:1.05rem;display:flex;gap:10px;align-items:center;flex-wrap:wrap}.path{background:none;padding:0;font-size:1rem}
.summary{margin:6px 0 8px;font-weight:600}
.method{font-size:.72rem;font-weight:800;letter-spacing:.04em;padding:3px 8px;border-radius:6px;color:#fff}
.get{background:#0f7b52}.post{background:#2759c9}.put{background:#a15c00}.delete{background:#b3261e}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:10px 0}.facts dt{color:var(--muted)}.facts dd{margin:0}
h4{margin:16px 0 6px;font-size:.9rem}table{border-collapse:collapse;width:100%;font-size:.88rem}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}th{color:var(--muted);font-weight:600}
.type{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.82rem;color:var(--muted)}.req{color:#b3261e;font-size:.75rem}
.or{margin:6px 0;color:var(--muted);font-style:italic}
pre{background:var(--code);padding:12px 14px;border-radius:8px;overflow:auto;max-height:420px;margin:6px 0}
@media (max-width:860px){.layout{display:block}table{display:block;overflow-x:auto}nav{position:static;height:auto;border-right:0;border-bottom:1px solid var(--line)}main{padding:20px 14px}.call{padding:14px}}
`;

function Page({ calls: API_CALLS }: { calls: readonly ApiCall[] }) {
  const document = openApiDocument(API_CALLS) as unknown as { paths: Record<string, Record<string, Operation>> };
  const tags = [...new Set(API_CALLS.map((c) => c.tag))];
  return (
    <div className="layout">
      <nav aria-label="Calls">
        <strong>Lectern API</strong>
        {tags.map((tag) => (
          <div key={tag}>
            <h2>{tag}</h2>
            <ul>
              {API_CALLS.filter((c) => c.tag === tag).map((c) => (
                <li key={operationId(c)}>
                  <a href={`#${operationId(c)}`}>
                    <span className="m">{c.method}</span>
                    {c.path.replace(/^\/api/, "")}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <main>
        <header>
          <h1>
            Lectern API <span className="muted">reference</span>
          </h1>
          <p className="muted">
            {API_CALLS.length} calls · machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1)
          </p>
        </header>
        <div className="intro">
          <p>
            Each organization answers on its own host (e.g. <code>https://acme.example.com/api/…</code>); platform calls answer on the
            platform&apos;s host. Send JSON with <code>Content-Type: application/json</code> and a token as{" "}
            <code>Authorization: Bearer &lt;token&gt;</code> (from <code>POST /api/auth/login</code>, or an API token made by an admin,
            which holds only the capabilities it was given).
          </p>
          <p>
            <strong>Envelope.</strong> A success is <code>{"{ payload, status }"}</code>; a failure is{" "}
            <code>{"{ error: true, payload: { message, code, fields? }, status }"}</code> with the same HTTP status. <code>code</code> is
            stable for programs; <code>message</code> is for people, in the caller&apos;s language; <code>fields</code> maps each wrong
            field to its messages. Lists answer <code>{"{ data: [...], meta: { current_page, per_page, total, last_page } }"}</code> with{" "}
            <code>page</code> and <code>per_page</code> (at most 100).
          </p>
          <p>
            <strong>Limits.</strong> Replies carry <code>RateLimit-*</code> headers; over the limit the answer is 429{" "}
            <code>too_many_requests</code> with <code>Retry-After</code>. Every reply has an <code>X-Request-Id</code> to quote when
            reporting a problem.
          </p>
        </div>
        {tags.map((tag) => (
          <div key={tag}>
            <h2 className="tag">{tag}</h2>
            {API_CALLS.filter((c) => c.tag === tag).map((c) => (
              <Call key={operationId(c)} call={c} operation={document.paths[c.path]?.[c.method.toLowerCase()]} />
            ))}
          </div>
        ))}
      </main>
    </div>
  );
}

const made = new WeakMap<readonly ApiCall[], string>();

/** The page's markup (made once per list of calls), with the request's CSP nonce on its stylesheet. */
export function apiReferenceHtml(calls: readonly ApiCall[], nonce: string) {
  let html = made.get(calls);
  if (html === undefined) made.set(calls, (html = renderToStaticMarkup(<Page calls={calls} />)));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Lectern API reference</title><style nonce="${nonce}">${STYLE}</style></head><body>${html}</body></html>`;
}
