import http from "node:http";

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: () => any;
}

/**
 * One HTTP request to the local server with an explicit Host header. Node's fetch would replace the
 * Host header and cannot resolve `*.localhost` (STACK.md trap 9), so this goes through http.request.
 */
export function request(
  port: number,
  host: string,
  path: string,
  { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
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
      },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (data += chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data, json: () => JSON.parse(data) }),
        );
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
