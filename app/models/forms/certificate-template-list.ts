import type { ListQuery, ListSpec } from "../../utils/list-query";

/**
 * The certificate templates management list's filters and sorts (issue 50; app/utils/list-query.ts), read by its
 * model (app/models/certificate-template-list.server.ts) and its screen (app/screens/certificate-templates.tsx):
 * the default template or the others, used by courses or not; by name, the courses using it or when made.
 */
export const CERTIFICATE_TEMPLATE_LIST: ListSpec<"kind" | "use", "name" | "courses" | "created"> = {
  filters: {
    kind: { kind: "in", values: ["default", "other"] },
    use: { kind: "in", values: ["used", "unused"] },
  },
  sorts: ["name", "courses", "created"],
  defaultSort: "name",
  defaultDir: (sort) => (sort === "name" ? "asc" : "desc"),
};

export type CertificateTemplateListQuery = ListQuery<
  keyof typeof CERTIFICATE_TEMPLATE_LIST.filters,
  (typeof CERTIFICATE_TEMPLATE_LIST.sorts)[number]
>;
