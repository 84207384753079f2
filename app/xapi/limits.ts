/*
 * The LRS's limits (docs/decisions/043-learning-record-store.md, "Limits"), each refused with the status xAPI
 * asks for. server/xapi.ts bounds a whole request by the largest of them.
 */

const MiB = 1024 * 1024;

/** A statement's JSON, and a batch's (413). */
export const STATEMENT_BYTES = 1 * MiB;
export const BATCH_BYTES = 16 * MiB;
/** Statements in one POST (413). */
export const BATCH_STATEMENTS = 500;
/** The attachments sent with a batch, together (413). */
export const ATTACHMENT_BYTES = 64 * MiB;
/** A state, activity profile or agent profile document (413). */
export const DOCUMENT_BYTES = 1 * MiB;
/** A 1.0.3 alternate-syntax form, read before its credential can be checked. */
export const FORM_BYTES = 2 * MiB;
/** How deep JSON may nest, and how long one array may be (400). */
export const JSON_DEPTH = 32;
export const JSON_ARRAY = 10_000;
