import type { Module } from "../core/module.ts";
import { accountOperations } from "./account-routes.ts";
import { authAdminOperations } from "./admin-routes.ts";
import { authOperations } from "./routes.ts";

/**
 * Dashboard users, organizations, API keys and `/v1/me`, and the organization's domains and members
 * under `/v1/admin` with invitations, password resets; its tables are the control plane's (with the
 * control plane's mail outbox, which the email module drains: src/auth/mail-outbox.ts).
 */
export const authModule: Module = {
  name: "auth",
  tables: { file: "src/auth/tables.ts", database: "platform" },
  // Accounts are the members'; shared with the other shops they belong to.
  shopRows: [
    { table: "organizations", where: "id = ?1" },
    { table: "users", where: "id IN (SELECT user_id FROM members WHERE organization_id = ?1)", shared: true },
    { table: "members", where: "organization_id = ?1" },
    { table: "domains", where: "organization_id = ?1" },
    { table: "api_keys", where: "organization_id = ?1" },
    { table: "invitations", where: "organization_id = ?1" },
  ],
  operations: [...authOperations, ...accountOperations, ...authAdminOperations],
};
