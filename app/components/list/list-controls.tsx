import { Form, Link } from "@remix-run/react";
import { ErrorList } from "~/components/form";
import { formatNumber } from "~/utils/numbers";
import { PAGE_SIZES, type ListErrors, type ListQuery } from "~/utils/list-query";
import { useTranslation } from "~/utils/translate";

/**
 * A management list's controls (issue 50; docs/decisions/046-management-lists.md), the same on every list: a GET
 * form with its search, its filters, its sort and direction and the page size, so it works without JavaScript and
 * every view has an address; and the pager under the list, with the total. What a list offers comes from its
 * `ListSpec` (app/utils/list-query.ts) and its labels from the screen.
 */
export interface ListFilter {
  name: string;
  label: string;
  /** The choice that leaves the filter off ("Any category"). */
  any: string;
  options: { value: string; label: string }[];
}

export function ListControls({
  id,
  label,
  searchLabel,
  query,
  filters,
  sorts,
  errors,
  clear,
  hidden = {},
}: {
  /** Prefix of the fields' ids. */
  id: string;
  /** The form's accessible name. */
  label: string;
  searchLabel: string;
  query: ListQuery;
  filters: ListFilter[];
  sorts: { value: string; label: string }[];
  errors: ListErrors | null;
  /** The list's address with nothing chosen. */
  clear: string;
  /** Parameters of the page the list is on, kept when the form is sent (the assignments screen's `assignment`). */
  hidden?: Record<string, string>;
}) {
  const { t } = useTranslation();
  const invalid = (name: string) => (errors?.[name] ? { "aria-invalid": true, "aria-describedby": `${id}-${name}-error` } : {});
  const error = (name: string) => errors?.[name] && <ErrorList id={`${id}-${name}-error`} errors={[errors[name]]} />;
  // Remounted when the address changes, so the uncontrolled fields show the list's state.
  return (
    <Form method="get" className="filter-bar list-controls" aria-label={label} key={JSON.stringify(query)}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="field list-search">
        <label htmlFor={`${id}-q`}>{searchLabel}</label>
        <input id={`${id}-q`} type="search" name="q" defaultValue={query.q} maxLength={200} {...invalid("q")} />
        {error("q")}
      </div>
      {filters.map((f) => (
        <div className="field" key={f.name}>
          <label htmlFor={`${id}-${f.name}`}>{f.label}</label>
          <select id={`${id}-${f.name}`} name={f.name} defaultValue={query.filters[f.name] ?? ""} {...invalid(f.name)}>
            <option value="">{f.any}</option>
            {f.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          {error(f.name)}
        </div>
      ))}
      <div className="field">
        <label htmlFor={`${id}-sort`}>{t("lists.sort")}</label>
        <select id={`${id}-sort`} name="sort" defaultValue={query.sort} {...invalid("sort")}>
          {sorts.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        {error("sort")}
      </div>
      <div className="field">
        <label htmlFor={`${id}-dir`}>{t("lists.direction")}</label>
        <select id={`${id}-dir`} name="dir" defaultValue={query.dir} {...invalid("dir")}>
          <option value="asc">{t("lists.asc")}</option>
          <option value="desc">{t("lists.desc")}</option>
        </select>
        {error("dir")}
      </div>
      <div className="field">
        <label htmlFor={`${id}-per-page`}>{t("lists.perPage")}</label>
        <select id={`${id}-per-page`} name="per_page" defaultValue={String(query.perPage)} {...invalid("per_page")}>
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
        {error("per_page")}
      </div>
      <div className="list-actions">
        <button type="submit" className="button primary">
          {t("lists.apply")}
        </button>
        <Link to={clear} className="button">
          {t("lists.clear")}
        </Link>
      </div>
      {errors?.page && <ErrorList errors={[errors.page]} />}
    </Form>
  );
}

/** Under a list: how many match, which of them are shown, and links to the pages before and after. */
export function ListPager({
  page,
  pages,
  total,
  perPage,
  shown,
  locale,
  link,
  label,
}: {
  page: number;
  pages: number;
  total: number;
  perPage: number;
  shown: number;
  locale: string;
  /** The address of page `n`. */
  link: (n: number) => string;
  label: string;
}) {
  const { t } = useTranslation();
  const first = (page - 1) * perPage + 1;
  return (
    <nav className="pager list-pager" aria-label={label} data-testid="list-pager">
      {page > 1 && (
        <Link to={link(page - 1)} rel="prev">
          {t("lists.previous")}
        </Link>
      )}
      <span data-testid="list-total">
        {total === 0
          ? t("lists.none")
          : t("lists.showing", {
              from: formatNumber(first, locale),
              to: formatNumber(first + shown - 1, locale),
              total: formatNumber(total, locale),
            })}
      </span>
      {page < pages && (
        <Link to={link(page + 1)} rel="next">
          {t("lists.next")}
        </Link>
      )}
    </nav>
  );
}
