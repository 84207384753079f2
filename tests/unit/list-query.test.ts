import { describe, expect, it } from "vitest";
import { COURSE_LIST } from "~/models/forms/course-list";
import { isWholeList, listFilters, listSearch, parseListQuery } from "~/utils/list-query";

/**
 * A management list's state in its address (issue 50; app/utils/list-query.ts): read against the list's spec, what
 * is not valid left out and named, and written back so that a link keeps everything but what it changes.
 */
const at = (search: string) => new URL(`http://acme.localhost/dashboard/organizations/1/courses${search}`);

describe("a list's address", () => {
  it("reads search, filters, sort, direction, page and page size; defaults when absent", () => {
    expect(parseListQuery(at(""), COURSE_LIST)).toEqual({
      query: { q: "", filters: {}, sort: "position", dir: "asc", page: 1, perPage: 25 },
      errors: null,
    });
    const { query, errors } = parseListQuery(
      at("?q=+fire+&category=3&kind=series&state=draft&sort=updated&page=2&per_page=50"),
      COURSE_LIST,
    );
    expect(errors).toBeNull();
    expect(query).toEqual({
      q: "fire",
      filters: { category: "3", kind: "series", state: "draft" },
      sort: "updated",
      dir: "desc",
      page: 2,
      perPage: 50,
    });
  });

  it("leaves out and names what is not valid, keeping the rest", () => {
    const long = "x".repeat(201);
    const { query, errors } = parseListQuery(
      at(`?q=${long}&category=abc&kind=podcast&state=published&sort=price&dir=up&page=0&per_page=1000`),
      COURSE_LIST,
    );
    expect(query).toEqual({ q: "", filters: { state: "published" }, sort: "position", dir: "asc", page: 1, perPage: 25 });
    expect(errors).toEqual({
      q: "lists.errors.search",
      category: "lists.errors.invalid",
      kind: "lists.errors.invalid",
      sort: "lists.errors.invalid",
      dir: "lists.errors.invalid",
      page: "lists.errors.invalid",
      per_page: "lists.errors.invalid",
    });
  });

  it("is written back with only what differs from the defaults, a link changing one thing", () => {
    const { query } = parseListQuery(at("?state=published&sort=title&dir=desc&per_page=100"), COURSE_LIST);
    expect(listSearch(query, COURSE_LIST)).toBe("?state=published&sort=title&dir=desc&per_page=100");
    expect(listSearch(query, COURSE_LIST, { page: 3 })).toBe("?state=published&sort=title&dir=desc&per_page=100&page=3");
    expect(listSearch(parseListQuery(at("?sort=position&dir=asc&page=1"), COURSE_LIST).query, COURSE_LIST)).toBe("");
    expect(listSearch(parseListQuery(at("?sort=updated"), COURSE_LIST).query, COURSE_LIST)).toBe("?sort=updated&dir=desc");
    expect(isWholeList(query, COURSE_LIST)).toBe(false);
    expect(isWholeList(parseListQuery(at("?page=4&per_page=50"), COURSE_LIST).query, COURSE_LIST)).toBe(true);
  });
});

describe("a list's filters as a bulk action sends them", () => {
  it("refuses a filter that is present but not text or a number, rather than leaving it out", () => {
    const read = (values: Record<string, unknown>) => (name: string) => values[name];
    expect(listFilters(COURSE_LIST, read({ category: "5" }))).toEqual({ query: { q: "", filters: { category: "5" } }, invalid: false });
    expect(listFilters(COURSE_LIST, read({ category: new Blob(["5"]) })).invalid).toBe(true);
    expect(listFilters(COURSE_LIST, read({ category: ["5"] })).invalid).toBe(true);
    expect(listFilters(COURSE_LIST, read({ category: "" })).invalid).toBe(false);
    expect(listFilters(COURSE_LIST, read({ category: "x" })).invalid).toBe(true);
  });
});
