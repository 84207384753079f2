import type { Organization } from "../../db/platform";
import type { TenantDb } from "../../db/open";
import type { XapiCredential } from "../../db/tenant";
import type { OrganizationFiles } from "~/models/xapi/attachment-files.server";
import type { Signer } from "~/models/xapi/more-token";
import type { XapiVersion } from "~/models/xapi/statements.server";
import type { Params } from "./params";
import type { XapiCall } from "./request.server";

/** What a resource's handler is given: the request, checked, with who sent it and where it goes. */
export interface XapiContext {
  call: XapiCall;
  version: XapiVersion;
  params: Params;
  credential: XapiCredential;
  db: TenantDb;
  organization: Organization;
  signer: Signer;
  files: OrganizationFiles;
  /** The LRS's address on this host, without a trailing slash. */
  baseUrl: string;
}

export type Handler = (xapi: XapiContext) => Promise<Response>;
