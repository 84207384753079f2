import type { NextFunction, Request, RequestHandler, Response } from "express";

/**
 * Several middleware run one after another as one Express layer. Express's router spends a few µs on
 * every layer a request passes (matching, trimming, its params step): with twenty layers, that was a tenth
 * of a small /api call (docs/decisions/014-speed.md, "The request path"). Semantics are Express's for plain
 * middleware: a handler that throws, or calls `next(error)`, skips the rest and hands the error on;
 * `next("route")` goes on to the next handler, as it does between `app.use` layers; `next("router")`
 * leaves, as it leaves Express's router.
 */
export function inSequence(...handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (error?: unknown) => {
      if (error === "router") return next(error);
      // As Express's router: only a truthy value is an error (`next(false)`, `next(0)`, `next("")` go on).
      if (error && error !== "route") return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      try {
        handler(req, res, step);
      } catch (caught) {
        // Express's layer hands on what was thrown; a falsy throw (`throw undefined`) goes on as `next()`.
        if (caught) next(caught);
        else step();
      }
    };
    step();
  };
}
