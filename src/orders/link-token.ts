import { createHmac, timingSafeEqual } from "node:crypto";
import type { AppContext } from "../app-context.ts";
import { instanceKeyring, type KeyPurpose } from "../core/keyring.ts";

// The token an email's order link carries. The access token place-order answers is kept only as a
// hash, so an email sent later cannot carry it; this one is derived instead: an HMAC of the shop
// and the order under a key derived from the instance key. Nothing is stored, it opens this one
// order of this one shop, and it stays valid while the key it was made with is listed
// (INTEGRATION_ENCRYPTION_KEY or INTEGRATION_ENCRYPTION_PREVIOUS_KEYS).

const ORDER_LINK: KeyPurpose = { salt: "commerce order link", info: "order link token v1" };
const PREFIX = "ol_";

const mac = (key: Buffer, orgId: string, orderId: string) =>
  createHmac("sha256", key).update(`${orgId}/${orderId}`).digest();

/** The link token of an order, under the current key. */
export function orderLinkToken(ctx: AppContext, orgId: string, orderId: string): string {
  return PREFIX + mac(instanceKeyring(ctx, ORDER_LINK).current.key, orgId, orderId).toString("base64url");
}

/** Whether `token` is the order's link token under any listed key (compared in constant time). */
export function orderLinkTokenMatches(
  ctx: AppContext,
  orgId: string,
  orderId: string,
  token: string,
): boolean {
  if (!token.startsWith(PREFIX)) return false;
  const given = Buffer.from(token.slice(PREFIX.length), "base64url");
  if (given.length !== 32) return false;
  let matches = false;
  for (const { key } of instanceKeyring(ctx, ORDER_LINK).byKid.values()) {
    if (timingSafeEqual(given, mac(key, orgId, orderId))) matches = true;
  }
  return matches;
}

/**
 * The storefront's page of an order (the store's `orderPageUrl`) with `order` and a link token that
 * opens it; null when the shop has no such page.
 */
export function orderPageLink(ctx: AppContext, orgId: string, orderPageUrl: string | null, orderId: string) {
  if (!orderPageUrl) return null;
  const url = new URL(orderPageUrl);
  url.searchParams.set("order", orderId);
  url.searchParams.set("token", orderLinkToken(ctx, orgId, orderId));
  return url.toString();
}
