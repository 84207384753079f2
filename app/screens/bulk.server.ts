import type { z } from "zod";
import { parseForm } from "~/utils/form";

type Selected<A> = { bulkAction: A; scope: "selected" | "all"; ids: number[] };

/**
 * What a bulk action's confirmation reads from its address (issue 50; people: app/screens/people-bulk.server.ts,
 * courses: app/screens/course-bulk.server.ts): the action and the selection (`schema`), and the list's search and
 * filters (`filters`). Refused — with the message to show — when the selection does not parse, or a filter does not
 * (`<prefix>.errors.filters`): never widened to the whole list. Else the selection as the confirmation's form sends
 * it on: the ticked ids, or the list's filters for "all that match".
 */
export function readBulkSelection<A extends string, Q extends { q: string; filters: Partial<Record<string, string>> }>(
  search: URLSearchParams,
  schema: z.ZodType<Selected<A>, z.ZodTypeDef, unknown>,
  filters: (read: (name: string) => unknown) => { query: Q; invalid: boolean },
  prefix: string,
) {
  const parsed = parseForm(search, schema);
  const { query, invalid } = filters((name) => search.get(name));
  if (parsed.status !== "success" || invalid) {
    const error = parsed.status === "success" ? `${prefix}.errors.filters` : Object.values(parsed.error ?? {}).flat()[0];
    return { query, ok: false as const, error: error ?? `${prefix}.errors.action` };
  }
  const { bulkAction, scope, ids } = parsed.value as Selected<A>;
  const selection = {
    action: bulkAction,
    scope,
    ids: scope === "all" ? [] : ids,
    filters: (scope === "all" ? { q: query.q, ...query.filters } : {}) as Record<string, string>,
  };
  return { query, ok: true as const, selection, ticked: ids };
}
