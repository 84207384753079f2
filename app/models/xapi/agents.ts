/**
 * An xAPI Agent's key: its one inverse functional identifier as a string, as given (docs/decisions/043-learning-record-store.md,
 * "Statements"), what the LRS indexes and compares agents by. `null` when the object names none, or more
 * than one (an Agent has exactly one).
 */
export function agentKey(agent: unknown): string | null {
  if (!agent || typeof agent !== "object" || Array.isArray(agent)) return null;
  const a = agent as Record<string, unknown>;
  const keys: string[] = [];
  if (a.mbox !== undefined) {
    if (typeof a.mbox !== "string" || !/^mailto:[^@\s]+@[^@\s]+$/i.test(a.mbox)) return null;
    keys.push(`mbox:${a.mbox}`);
  }
  if (a.mbox_sha1sum !== undefined) {
    if (typeof a.mbox_sha1sum !== "string" || !/^[0-9a-f]{40}$/i.test(a.mbox_sha1sum)) return null;
    keys.push(`mbox_sha1sum:${a.mbox_sha1sum}`);
  }
  if (a.openid !== undefined) {
    if (typeof a.openid !== "string" || !isAbsoluteIri(a.openid)) return null;
    keys.push(`openid:${a.openid}`);
  }
  if (a.account !== undefined) {
    const account = a.account as Record<string, unknown> | null;
    if (!account || typeof account !== "object" || typeof account.homePage !== "string" || typeof account.name !== "string") return null;
    if (!isAbsoluteIri(account.homePage)) return null;
    keys.push(`account:${account.homePage}|${account.name}`);
  }
  return keys.length === 1 ? keys[0] : null;
}

/** An absolute IRI: a scheme, a colon, and something after it. */
export function isAbsoluteIri(value: string) {
  return /^[a-z][a-z0-9+.-]*:\S+$/i.test(value) && !/\s/.test(value);
}
