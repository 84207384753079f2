import type { i18n } from "i18next";

/**
 * A server instance never changes language or texts, so the text for a key and the same simple values
 * (a count, a number, a name) is worked out once per process: i18next's lookup walks options, namespaces,
 * fallbacks, plurals and interpolation on every call, and a page makes hundreds of them. Calls with
 * anything but plain values (objects, arrays, functions) go to i18next every time. Each function keeps at
 * most MAX_KEPT_TEXTS results and starts again when full.
 */
const MAX_KEPT_TEXTS = 20_000;
function keptKey(args: unknown[]): string | null {
  const [key, options] = args;
  if (typeof key !== "string" || args.length > 2) return null;
  if (args.length === 1 || options === undefined) return key;
  if (typeof options !== "object" || options === null || Object.getPrototypeOf(options) !== Object.prototype) return null;
  let id = key;
  for (const [name, value] of Object.entries(options)) {
    if (value !== null && typeof value === "object") return null;
    if (typeof value === "function" || typeof value === "symbol") return null;
    id += `\u0000${name}\u0001${typeof value}\u0001${String(value)}`;
  }
  return id;
}

/** `t` with its answers for a key and plain values kept (any translate function: the render's or i18next's). */
export function keptT<T extends (...args: never[]) => unknown>(t: T): T {
  const inner = t as unknown as (...args: unknown[]) => unknown;
  const texts = new Map<string, unknown>();
  return ((...args: unknown[]) => {
    const key = keptKey(args);
    if (key === null) return inner(...args);
    let text = texts.get(key);
    if (text === undefined) {
      text = inner(...args);
      if (texts.size >= MAX_KEPT_TEXTS) texts.clear();
      texts.set(key, text);
    }
    return text;
  }) as unknown as T;
}

/** An i18next instance whose fixed `t` functions keep their answers (see keptT). */
export function keepTexts(instance: i18n) {
  const fixedT = instance.getFixedT.bind(instance) as (...args: unknown[]) => unknown;
  const kept = new Map<string, ReturnType<i18n["getFixedT"]>>();
  instance.getFixedT = ((lng: string | readonly string[] | null, ns?: string | readonly string[] | null, keyPrefix?: string) => {
    const id = `${String(lng)}\u0000${String(ns)}\u0000${keyPrefix ?? ""}`;
    let t = kept.get(id);
    if (!t) {
      const inner = fixedT(lng, ns, keyPrefix) as (...args: unknown[]) => unknown;
      const memo = keptT(inner);
      Object.assign(memo, {
        lng: (inner as { lng?: unknown }).lng,
        ns: (inner as { ns?: unknown }).ns,
        keyPrefix: (inner as { keyPrefix?: unknown }).keyPrefix,
      });
      t = memo as unknown as ReturnType<i18n["getFixedT"]>;
      kept.set(id, t);
    }
    return t;
  }) as i18n["getFixedT"];
  return instance;
}
