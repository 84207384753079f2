import { describe, expect, it, vi } from "vitest";

/**
 * db/connections.ts is bundled twice: into build/server.js, which opens the handles and begins the
 * transactions, and into build/index.js, whose models ask for the connection under a transaction. Both
 * copies must share one registry, or a model finds no connection (and keeps prepared queries per
 * transaction instead of per connection).
 */
describe("the connection registry", () => {
  it("is shared by every copy of the module in the process", async () => {
    const first = await import("../../db/connections");
    vi.resetModules();
    const second = await import("../../db/connections");
    expect(second).not.toBe(first); // two copies, as the two bundles have
    const connection = { prepare() {} };
    const transaction = {};
    first.rememberConnection(transaction, connection);
    expect(second.connectionOf(transaction)).toBe(connection);
    expect(second.connectionOf({})).not.toBe(connection);
  });
});
