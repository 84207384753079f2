import type { NextFunction, Request, RequestHandler, Response } from "express";
import { describe, expect, it } from "vitest";
import { inSequence } from "../../server/in-sequence";

const req = {} as Request;
const res = {} as Response;

function run(...handlers: RequestHandler[]) {
  const calls: unknown[] = [];
  inSequence(...handlers)(req, res, ((error?: unknown) => calls.push(error ?? "next")) as NextFunction);
  return calls;
}

describe("inSequence", () => {
  it("runs the handlers in order and then calls next once", () => {
    const seen: number[] = [];
    const calls = run(
      (_q, _s, next) => (seen.push(1), next()),
      (_q, _s, next) => (seen.push(2), next()),
      (_q, _s, next) => (seen.push(3), next()),
    );
    expect(seen).toEqual([1, 2, 3]);
    expect(calls).toEqual(["next"]);
  });

  it("stops where a handler answers (does not call next)", () => {
    const seen: number[] = [];
    const calls = run(
      (_q, _s, next) => (seen.push(1), next()),
      () => void seen.push(2),
      () => void seen.push(3),
    );
    expect(seen).toEqual([1, 2]);
    expect(calls).toEqual([]);
  });

  it("hands on an error passed to next, or thrown, skipping the rest", () => {
    const boom = new Error("boom");
    let reached = false;
    expect(
      run(
        (_q, _s, next) => next(boom),
        () => void (reached = true),
      ),
    ).toEqual([boom]);
    expect(
      run(
        () => {
          throw boom;
        },
        () => void (reached = true),
      ),
    ).toEqual([boom]);
    expect(reached).toBe(false);
  });

  it("goes on after a falsy value passed to next or thrown, as Express's router does", () => {
    for (const falsy of [false, 0, "", null]) {
      const seen: number[] = [];
      expect(
        run(
          (_q, _s, next) => next(falsy as unknown as Error),
          (_q, _s, next) => (seen.push(2), next()),
        ),
      ).toEqual(["next"]);
      expect(seen).toEqual([2]);
    }
    const seen: number[] = [];
    expect(
      run(
        () => {
          throw undefined;
        },
        (_q, _s, next) => (seen.push(2), next()),
      ),
    ).toEqual(["next"]);
    expect(seen).toEqual([2]);
  });

  it("goes on after next('route'), as between app.use layers, and leaves on next('router')", () => {
    let reached = false;
    expect(
      run(
        (_q, _s, next) => next("route"),
        (_q, _s, next) => ((reached = true), next()),
      ),
    ).toEqual(["next"]);
    expect(reached).toBe(true);
    expect(
      run(
        (_q, _s, next) => next("router"),
        () => undefined,
      ),
    ).toEqual(["router"]);
  });

  it("lets a handler call next later (asynchronously)", async () => {
    const calls: unknown[] = [];
    await new Promise<void>((resolve) =>
      inSequence(
        (_q, _s, next) => void setTimeout(next, 1),
        (_q, _s, next) => next(),
      )(req, res, (() => (calls.push("next"), resolve())) as NextFunction),
    );
    expect(calls).toEqual(["next"]);
  });
});
