import { JSON_ARRAY, JSON_DEPTH } from "./limits";

/*
 * JSON as the LRS reads it: parsed, then walked (without recursion) to refuse what nests deeper or lists
 * longer than the limits allow.
 */

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

export function parseJson(text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: "The body is not valid JSON." };
  }
  const problem = boundsProblem(value);
  return problem ? { ok: false, message: problem } : { ok: true, value };
}

/** Why `value` passes the depth or array limits, or null. */
export function boundsProblem(value: unknown): string | null {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (!item || typeof item !== "object") continue;
    if (depth > JSON_DEPTH) return `JSON may nest at most ${JSON_DEPTH} levels deep.`;
    if (Array.isArray(item)) {
      if (item.length > JSON_ARRAY) return `A JSON array may hold at most ${JSON_ARRAY} items.`;
      for (const child of item) stack.push([child, depth + 1]);
    } else for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return null;
}
