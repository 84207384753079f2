import { LANGUAGES } from "../../utils/i18n";
import type { ListQuery, ListSpec } from "../../utils/list-query";

/**
 * The super-admin's organizations list's filters and sorts (issue 50; app/utils/list-query.ts), read by its model
 * (app/models/organization-list.server.ts) and its screen: the organization's language, whether it asks for a
 * sign-in code, how it is reached (a prefix of the platform's domain, or a host name of its own); by name, when
 * made, or its numbers of people and courses as the platform keeps them (organization_summaries).
 */
export const ORGANIZATION_LIST: ListSpec<"language" | "twoFactor" | "address", "name" | "created" | "people" | "courses"> = {
  filters: {
    language: { kind: "in", values: LANGUAGES },
    twoFactor: { kind: "in", values: ["required", "optional"] },
    address: { kind: "in", values: ["prefix", "domain"] },
  },
  sorts: ["name", "created", "people", "courses"],
  defaultSort: "name",
  defaultDir: (sort) => (sort === "name" ? "asc" : "desc"),
};

export type OrganizationListQuery = ListQuery<keyof typeof ORGANIZATION_LIST.filters, (typeof ORGANIZATION_LIST.sorts)[number]>;
