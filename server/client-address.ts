import type { Request } from "express";

/**
 * The client's address: Express's req.ip without its cost when no proxy is trusted: then it is the socket's
 * address, which Express finds only after parsing X-Forwarded-For (gone by then: server/app.ts forwardedHeaders)
 * on every read. The rate limits count by it (server/protection.ts); the viewer carries it (server/viewer.ts).
 */
export function clientAddress(req: Request): string {
  return (req.app.get("trust proxy") === false ? req.socket.remoteAddress : req.ip) ?? "";
}
