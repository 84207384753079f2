import type { Capability } from "../utils/capabilities";

/*
 * Who may do what in the organization's LRS (docs/decisions/043-learning-record-store.md, "Credentials"): a
 * credential's scope decides which statements it may send, read and void. The models turn these answers
 * into their queries (app/models/xapi/).
 */

/** What the rules read of a credential (db/tenant/xapi.ts `xapi_credentials`). */
export interface XapiGrant {
  id: number;
  scope: "all" | "write" | "actor";
  actorKey: string | null;
  registration: string | null;
}

/**
 * The statements a credential may read: every one (`{}`), those it sent (`sentBy`), or its own agent's,
 * of its registration when it has one (`actorKey`, `registration`).
 */
export function xapiReach(grant: XapiGrant): { sentBy?: number; actorKey?: string; registration?: string } {
  if (grant.scope === "all") return {};
  if (grant.scope === "write") return { sentBy: grant.id };
  return { actorKey: grant.actorKey ?? "", ...(grant.registration ? { registration: grant.registration } : {}) };
}

/** Why a credential may not send a statement of this actor and registration, or null when it may. */
export function xapiSendRefusal(grant: XapiGrant, statement: { actorKey: string | null; registration: string | null }): string | null {
  if (grant.scope !== "actor") return null;
  if (statement.actorKey !== grant.actorKey) return "This credential may only send its own agent's statements.";
  if (grant.registration && statement.registration !== grant.registration)
    return "This credential may only send statements of its own registration.";
  return null;
}

/**
 * Whether a credential may void a statement that `sentBy` sent (undefined: not stored yet, or sent in the
 * same batch): content's own credentials never void; a `write` one only what it sent.
 */
export function xapiMayVoid(grant: XapiGrant, sentBy: number | null | undefined): boolean {
  if (grant.scope === "actor") return false;
  if (grant.scope === "write") return sentBy === undefined || sentBy === grant.id;
  return true;
}

/**
 * Why a credential may not read (or write) a document of this kind and agent, or null when it may: an
 * `actor` credential only its own agent's state and profile, and activity profiles to read.
 */
export function xapiDocumentRefusal(
  grant: XapiGrant,
  document: { kind: string; agentKey: string | null; write: boolean; documentId?: string },
): string | null {
  if (grant.scope !== "actor") return null;
  // cmi5 §10.2.1: the AU reads the LMS's launch data and never changes it.
  if (document.write && document.kind === "state" && document.documentId === "LMS.LaunchData")
    return "LMS.LaunchData is the LMS's: content may read it, not change it.";
  if (document.kind === "activity-profile") return document.write ? "This credential may not change activity profiles." : null;
  if (document.agentKey !== grant.actorKey) return "This credential may only use its own agent's documents.";
  return null;
}

/** Whether a credential may read what the LRS knows of an agent (`/agents`): its own, unless it reads all. */
export function xapiMayReadAgent(grant: XapiGrant, agentKey: string): boolean {
  return grant.scope !== "actor" || agentKey === grant.actorKey;
}

/** The documents a credential reaches: a `write` credential only those it wrote (decision 043, "Credentials"). */
export function xapiDocumentReach(grant: XapiGrant): { writtenBy?: number } {
  return grant.scope === "write" ? { writtenBy: grant.id } : {};
}

/**
 * The capabilities a credential's holder gets beyond `manage:xapi`, which its maker must hold too (no action
 * widens its maker's reach): reading every statement (`all`: read:xapi), and, for any scope, recording
 * learners' results, which statements about lessons do (write:user).
 */
export function xapiCredentialNeeds(scope: "all" | "write"): Capability[] {
  return scope === "all" ? ["read:xapi", "write:user"] : ["write:user"];
}

/** The capabilities a maker lacks for a credential of `scope` (none: they may make it). */
export function xapiCredentialLacks(capabilities: ReadonlySet<Capability>, scope: "all" | "write"): Capability[] {
  return xapiCredentialNeeds(scope).filter((c) => !capabilities.has(c));
}
