import type { MouseEvent } from "react";
import { useTranslation } from "~/utils/translate";
import { formatNumber } from "~/utils/numbers";
import { COMPLIANCE_COLUMNS, complianceSearch, type ComplianceColumn } from "~/utils/compliance-query";

type Counts = Record<ComplianceColumn, number>;

/**
 * A click on a count goes through the app's router, as app/components/list-link.tsx does, but with one handler
 * shared by every link rather than a component and a closure each: a report of many courses and groups has
 * hundreds of counts, and they were a good part of its page's time.
 */
function followInApp(event: MouseEvent<HTMLAnchorElement>) {
  const router = (window as unknown as { __remixRouter?: { navigate(to: string, options: { replace: boolean }): unknown } }).__remixRouter;
  if (!router || event.defaultPrevented || event.button || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
  event.preventDefault();
  const to = event.currentTarget.getAttribute("href")!;
  const here = location.pathname + location.search + location.hash;
  void router.navigate(to, { replace: here === to });
}
export interface CountsRow extends Counts {
  id: number;
  name: string;
}

/**
 * One of the report's tables (per course, per learning path, or per group): each count links to the people behind
 * it, on the people list with the same filters and that row's course, path or group. Zero is plain text: nobody to
 * show.
 */
export function CountsTable({
  id,
  title,
  hint,
  rowHeader,
  rows,
  totals,
  kind,
  filters,
  locale,
  empty,
}: {
  id: string;
  title: string;
  hint: string;
  rowHeader: string;
  rows: CountsRow[];
  totals?: Counts;
  kind: "course" | "group" | "path";
  filters: { courseId?: number; groupId?: number };
  locale: string;
  empty: string;
}) {
  const { t } = useTranslation();
  const labels = Object.fromEntries(COMPLIANCE_COLUMNS.map((c) => [c, t(`compliance.columns.${c}`)])) as Record<ComplianceColumn, string>;
  const link = (row: { id?: number; name: string }, column: ComplianceColumn, value: number) => {
    const text = formatNumber(value, locale);
    if (value === 0) return text;
    const search = complianceSearch({
      ...filters,
      ...(row.id === undefined
        ? {}
        : kind === "course"
          ? { courseId: row.id }
          : kind === "path"
            ? { pathId: row.id }
            : { groupId: row.id }),
      state: column,
    });
    return (
      <a
        href={`/dashboard/compliance/people${search}`}
        data-discover="true"
        onClick={followInApp}
        aria-label={t("compliance.countLink", { value: text, what: labels[column], name: row.name })}
      >
        {text}
      </a>
    );
  };
  return (
    <section className="panel compliance-table" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className="hint">{hint}</p>
      {rows.length === 0 ? (
        <p className="muted" data-testid={`${id}-empty`}>
          {empty}
        </p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid={id}>
            <thead>
              <tr>
                <th scope="col">{rowHeader}</th>
                {COMPLIANCE_COLUMNS.map((c) => (
                  <th scope="col" key={c} className={`num state-${c}`}>
                    {labels[c]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-id={row.id}>
                  <th scope="row">{row.name}</th>
                  {COMPLIANCE_COLUMNS.map((c) => (
                    <td
                      key={c}
                      className={`num state-${c}${row[c] && (c === "overdue" || c === "expiring") ? " attention" : ""}`}
                      data-column={c}
                    >
                      {link(row, c, row[c])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
            {totals && rows.length > 1 && (
              <tfoot>
                <tr>
                  <th scope="row">{t("compliance.allCourses")}</th>
                  {COMPLIANCE_COLUMNS.map((c) => (
                    <td key={c} className="num" data-column={c}>
                      {link({ name: t("compliance.allCourses") }, c, totals[c])}
                    </td>
                  ))}
                </tr>
              </tfoot>
            )}
          </table>
        </div>
      )}
    </section>
  );
}
