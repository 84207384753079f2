import http from "node:http";

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  raw: Buffer;
  json: () => any;
}

/**
 * One HTTP request to the local server with an explicit Host header. Node's fetch would replace the
 * Host header and cannot resolve `*.localhost` (docs/decisions/001-stack-and-layout.md, trap 9), so this goes through http.request.
 */
export function request(
  port: number,
  host: string,
  path: string,
  { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method,
        // Node sends a DELETE body without framing unless told its length.
        headers: { Host: host, ...(body !== undefined ? { "Content-Length": String(Buffer.byteLength(body)) } : {}), ...headers },
        setHost: false,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const data = raw.toString("utf8");
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data, raw, json: () => JSON.parse(data) });
        });
      },
    );
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export function form(fields: Record<string, string>) {
  return {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  };
}

/** The value of one cookie in a response's Set-Cookie headers. */
export function setCookie(res: HttpResponse, name: string) {
  const all = res.headers["set-cookie"] ?? [];
  return all.find((c) => c.startsWith(`${name}=`));
}

/** A multipart/form-data body, as a browser sends a form with files. */
export function multipart(fields: Record<string, string>, files: Record<string, { name: string; type: string; data: Buffer }> = {}) {
  const boundary = `----lectern${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const [name, file] of Object.entries(files)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
    );
    parts.push(file.data, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
