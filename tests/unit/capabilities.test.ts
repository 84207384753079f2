import { describe, expect, it } from "vitest";
import { CAPABILITIES, CAPABILITY_GROUPS, capabilitiesOf, mayGrant, ROLE_CAPABILITIES } from "~/utils/capabilities";

describe("capabilities", () => {
  it("are each in exactly one display group", () => {
    const grouped = CAPABILITY_GROUPS.flatMap((g) => g.capabilities);
    expect([...grouped].sort()).toEqual([...CAPABILITIES].sort());
    expect(new Set(grouped).size).toBe(grouped.length);
  });

  it("nest by role: learner ⊂ group admin ⊂ admin = super-admin", () => {
    const learner = capabilitiesOf("learner");
    const groupAdmin = capabilitiesOf("group_admin");
    for (const c of learner) expect(groupAdmin.has(c)).toBe(true);
    expect(capabilitiesOf("admin").size).toBe(CAPABILITIES.length);
    expect(ROLE_CAPABILITIES.super_admin).toEqual(CAPABILITIES);
  });

  it("give a learner no writes and no people", () => {
    const learner = [...capabilitiesOf("learner")];
    expect(learner.filter((c) => c.startsWith("write:") || c.startsWith("manage:"))).toEqual([]);
    expect(learner).not.toContain("read:user");
    expect(capabilitiesOf(null).size).toBe(0);
  });

  it("let nobody give a role beyond their own reach (mayGrant)", () => {
    const admin = { role: "admin" as const, capabilities: capabilitiesOf("admin") };
    const limitedToken = { role: "admin" as const, capabilities: new Set(["write:user", "read:user"] as const) };
    const groupAdmin = { role: "group_admin" as const, capabilities: capabilitiesOf("group_admin") };
    expect(mayGrant(admin, "admin")).toBe(true);
    expect(mayGrant(admin, "learner")).toBe(true);
    expect(mayGrant(limitedToken, "learner")).toBe(true);
    expect(mayGrant(limitedToken, "admin")).toBe(false);
    expect(mayGrant(groupAdmin, "admin")).toBe(false);
    expect(mayGrant(admin, "super_admin")).toBe(false);
    expect(mayGrant({ role: null, capabilities: new Set() }, "learner")).toBe(false);
    expect(mayGrant(limitedToken, null)).toBe(true);
  });
});
