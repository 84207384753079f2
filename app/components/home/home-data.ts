import type { useLoaderData } from "@remix-run/react";
import type { loader } from "~/screens/home.server";

/** An organization's home page as its loader gives it (app/screens/home.server.ts). */
export type OrganizationHome = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { kind: "organization" }>;
