import { Link } from "@remix-run/react";
import { Heading } from "~/components/heading";
import { ListControls, ListPager } from "~/components/list/list-controls";
import { IMPORT_LIST, IMPORT_STATES, type ImportListQuery } from "~/models/forms/import-list";
import { listSearch, type ListErrors } from "~/utils/list-query";
import { useTranslation } from "~/utils/translate";

/** What app/screens/user-import.tsx `pastImports` gives the page. */
interface List {
  base: string;
  query: ImportListQuery;
  errors: ListErrors | null;
  page: { page: number; pages: number; total: number; perPage: number };
  filtered: boolean;
  locale: string;
  rows: { id: number; fileName: string; status: (typeof IMPORT_STATES)[number]; rowCount: number; createdAt: string }[];
}

/**
 * The organization's past CSV imports under the upload form (issue 50): each links to its status page; the shared
 * list controls and pager (app/components/list/list-controls.tsx). Its data is app/screens/user-import.tsx `pastImports`.
 */
export function PastImports({ list }: { list: List }) {
  const { t } = useTranslation();
  return (
    <section className="panel" aria-labelledby="past-imports-title" data-testid="past-imports">
      <Heading sub={1} id="past-imports-title">
        {t("peopleLists.imports.title")}
      </Heading>
      {list.page.total === 0 && !list.filtered ? (
        <p className="empty-state">{t("peopleLists.imports.empty")}</p>
      ) : (
        <>
          <ListControls
            id="imports-list"
            label={t("peopleLists.imports.label")}
            searchLabel={t("peopleLists.imports.search")}
            query={list.query}
            filters={[
              {
                name: "status",
                label: t("peopleLists.imports.state"),
                any: t("peopleLists.imports.anyState"),
                options: IMPORT_STATES.map((s) => ({ value: s, label: t(`peopleLists.imports.states.${s}`) })),
              },
            ]}
            sorts={IMPORT_LIST.sorts.map((s) => ({ value: s, label: t(`peopleLists.imports.sorts.${s}`) }))}
            errors={list.errors}
            clear={list.base}
          />
          {list.rows.length > 0 && (
            <div className="table-scroll">
              <table className="table" data-testid="imports">
                <caption className="visually-hidden">{t("peopleLists.imports.title")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("peopleLists.imports.sorts.name")}</th>
                    <th scope="col">{t("peopleLists.imports.state")}</th>
                    <th scope="col" className="number">
                      {t("peopleLists.imports.sorts.rows")}
                    </th>
                    <th scope="col">{t("peopleLists.imports.sorts.created")}</th>
                  </tr>
                </thead>
                <tbody>
                  {list.rows.map((r) => (
                    <tr key={r.id} data-import={r.fileName} data-status={r.status}>
                      <td>
                        <Link to={`${list.base}/${r.id}`}>{r.fileName}</Link>
                      </td>
                      <td>
                        <span
                          className={`state-badge${r.status === "done" ? " state-done" : r.status === "failed" ? " state-overdue" : ""}`}
                        >
                          {t(`peopleLists.imports.states.${r.status}`)}
                        </span>
                      </td>
                      <td className="number">{r.rowCount}</td>
                      <td>{r.createdAt}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <ListPager
            {...list.page}
            shown={list.rows.length}
            locale={list.locale}
            link={(n) => `${list.base}${listSearch(list.query, IMPORT_LIST, { page: n })}`}
            label={t("lists.pages")}
          />
        </>
      )}
    </section>
  );
}
