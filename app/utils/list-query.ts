/**
 * A management list's state in its address (issue 50; docs/decisions/046-management-lists.md): what it searches
 * for (`q`), its filters, its sort and direction, the page and the page size, all plain URL parameters, so a
 * filtered list can be bookmarked and shared and its form works without JavaScript. One list names its filters
 * and sorts in a `ListSpec`; `parseListQuery` reads an address against it, leaving out (and naming) what is not
 * valid rather than failing the page; `listSearch` writes the parameters back for links. Not a .server module:
 * the pages build their links with it.
 */

/** How many rows a page may show; the first is the default. */
export const PAGE_SIZES = [25, 50, 100] as const;
const MAX_SEARCH = 200;

/** A filter: one of some values (`in`), or a row's id (`id`). */
export type FilterSpec = { kind: "in"; values: readonly string[] } | { kind: "id" };

export interface ListSpec<F extends string = string, S extends string = string> {
  filters: Record<F, FilterSpec>;
  sorts: readonly S[];
  defaultSort: S;
  /** The direction of each sort when the address names none. */
  defaultDir: (sort: S) => "asc" | "desc";
}

export interface ListQuery<F extends string = string, S extends string = string> {
  q: string;
  filters: Partial<Record<F, string>>;
  sort: S;
  dir: "asc" | "desc";
  page: number;
  perPage: number;
}

/** The parameters that were not valid, by name, each with the key of its message (in every locale). */
export type ListErrors = Record<string, "lists.errors.invalid" | "lists.errors.search">;

const ID = /^\d{1,15}$/;
const PAGE = /^\d{1,9}$/;

/** Reads a list's state from its address; what does not parse is left out and named in `errors`. */
export function parseListQuery<F extends string, S extends string>(
  url: URL,
  spec: ListSpec<F, S>,
): { query: ListQuery<F, S>; errors: ListErrors | null } {
  const p = url.searchParams;
  const errors: ListErrors = {};
  const read = (name: string) => (p.get(name) ?? "").trim();
  let q = read("q");
  if (q.length > MAX_SEARCH) {
    errors.q = "lists.errors.search";
    q = "";
  }
  const filters: Partial<Record<F, string>> = {};
  for (const name of Object.keys(spec.filters) as F[]) {
    const value = read(name);
    if (!value) continue;
    const filter = spec.filters[name];
    if (filter.kind === "id" ? ID.test(value) : filter.values.includes(value)) filters[name] = value;
    else errors[name] = "lists.errors.invalid";
  }
  const sortParam = read("sort");
  const sort = (spec.sorts as readonly string[]).includes(sortParam) ? (sortParam as S) : spec.defaultSort;
  if (sortParam && sort !== sortParam) errors.sort = "lists.errors.invalid";
  const dirParam = read("dir");
  const dir = dirParam === "asc" || dirParam === "desc" ? dirParam : spec.defaultDir(sort);
  if (dirParam && dir !== dirParam) errors.dir = "lists.errors.invalid";
  const pageParam = read("page");
  const page = PAGE.test(pageParam) && Number(pageParam) >= 1 ? Number(pageParam) : 1;
  if (pageParam && String(page) !== pageParam) errors.page = "lists.errors.invalid";
  const sizeParam = read("per_page");
  const perPage = (PAGE_SIZES as readonly number[]).includes(Number(sizeParam)) ? Number(sizeParam) : PAGE_SIZES[0];
  if (sizeParam && String(perPage) !== sizeParam) errors.per_page = "lists.errors.invalid";
  return { query: { q, filters, sort, dir, page, perPage }, errors: Object.keys(errors).length ? errors : null };
}

/**
 * The list's state as URL parameters (`?` included; empty when all are defaults), with `change` applied: a
 * sort's link, a page's, the same list at another size.
 */
export function listSearch<F extends string, S extends string>(
  query: ListQuery<F, S>,
  spec: ListSpec<F, S>,
  change: Partial<Omit<ListQuery<F, S>, "filters">> = {},
) {
  const next = { ...query, ...change };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  for (const [name, value] of Object.entries(next.filters)) if (value) params.set(name, String(value));
  if (next.sort !== spec.defaultSort || next.dir !== spec.defaultDir(next.sort)) {
    params.set("sort", next.sort);
    params.set("dir", next.dir);
  }
  if (next.perPage !== PAGE_SIZES[0]) params.set("per_page", String(next.perPage));
  if (next.page > 1) params.set("page", String(next.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Whether the list shows every row in its own order: no search, filter, other sort or page. */
export const isWholeList = <F extends string, S extends string>(query: ListQuery<F, S>, spec: ListSpec<F, S>) =>
  !query.q && Object.values(query.filters).every((v) => !v) && query.sort === spec.defaultSort && query.dir === spec.defaultDir(query.sort);

/**
 * A list's search and filters as a bulk action sends them along (issue 50; a confirmation's fields, or the `filter`
 * of `POST /api/users/bulk` and `/api/courses/bulk`): `invalid` when one does not parse, which refuses the action
 * rather than leaving the filter out and widening it.
 */
export function listFilters<F extends string, S extends string>(
  spec: ListSpec<F, S>,
  read: (name: string) => unknown,
): { query: Pick<ListQuery<F, S>, "q" | "filters">; invalid: boolean } {
  const url = new URL("http://list/");
  for (const name of ["q", ...Object.keys(spec.filters)]) {
    const value = read(name);
    if ((typeof value === "string" && value) || typeof value === "number") url.searchParams.set(name, String(value));
  }
  const { query, errors } = parseListQuery(url, spec);
  return { query: { q: query.q, filters: query.filters }, invalid: errors !== null };
}
