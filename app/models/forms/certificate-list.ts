import type { ListQuery, ListSpec } from "../../utils/list-query";

/** A certificate's state in the issued certificates list: revoked, else expired after its last valid day, else valid. */
export const CERTIFICATE_STATES = ["valid", "expired", "revoked"] as const;
export type CertificateState = (typeof CERTIFICATE_STATES)[number];

/**
 * The issued certificates management list's filters and sorts (issue 50; app/utils/list-query.ts), read by its
 * model (app/models/certificate-list.server.ts) and its screen (app/screens/issued-certificates.tsx): a course,
 * a state, a template; by when issued (newest first by default), the person's name or the course's title.
 */
export const CERTIFICATE_LIST: ListSpec<"course" | "state" | "template", "issued" | "person" | "course"> = {
  filters: {
    course: { kind: "id" },
    state: { kind: "in", values: CERTIFICATE_STATES },
    template: { kind: "id" },
  },
  sorts: ["issued", "person", "course"],
  defaultSort: "issued",
  defaultDir: (sort) => (sort === "issued" ? "desc" : "asc"),
};

export type CertificateListQuery = ListQuery<keyof typeof CERTIFICATE_LIST.filters, (typeof CERTIFICATE_LIST.sorts)[number]>;
