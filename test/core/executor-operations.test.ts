import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { sha256Hex } from "../../src/auth/crypto.ts";
import { createInvitation } from "../../src/auth/invitations.ts";
import { addMember, createSession, createUser } from "../../src/auth/service.ts";
import { uploadedFile } from "../../src/core/body.ts";
import { ApiError } from "../../src/core/errors.ts";
import { recordEvent } from "../../src/core/events.ts";
import type { ExecuteOptions, Outcome, Principal } from "../../src/core/executor.ts";
import type { Caller, DashboardUser, Operation } from "../../src/core/operation.ts";
import { immediately } from "../../src/db/sqlite.ts";
import { activeAgent, newMerchant } from "../agents/helpers.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { png } from "../helpers/images.ts";
import { PT_ADDRESS } from "../helpers/shop.ts";
import { type FakeStripe, fakeStripe, stripeEvent, stripeHeader } from "../payments/helpers.ts";

// Every declared operation run through the executor alone (no Request, no HTTP adapter), from a
// table of minimal valid inputs keyed by operationId. The fixtures are made by executing
// operations too; destructive rows get resources of their own.

const PASSWORD = "correct horse battery";
const CHECKOUT_SECRET = "e".repeat(40);
const STRIPE_WEBHOOK_SECRET = "whsec_executorSigningSecret42";

interface Row {
  principal: Principal;
  /** The merged input: path params + query + body fields. */
  input: Record<string, unknown>;
  expectStatus: 200 | 201 | 202 | 204;
  /** A storefront customer session token, handed over as `options.customerToken`. */
  customerToken?: string;
  /** A webhook's delivery: its request headers and body bytes. */
  delivery?: Pick<ExecuteOptions, "headers" | "rawBody" | "file">;
}

let t: TestApp;
let requests = 0;
/** Card payments are started against a fake Stripe on 127.0.0.1. */
let stripe: FakeStripe;

function operation(operationId: string): Operation {
  const op = t.app.operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return op;
}

function execute(
  operationId: string,
  principal: Principal,
  input: Record<string, unknown>,
  options: Partial<ExecuteOptions> = {},
): Promise<Outcome> {
  return t.app.executor.execute(operation(operationId), principal, input, {
    requestId: `executor-test-${++requests}`,
    ...options,
  });
}

/** Runs an operation for fixtures and returns its `data`. */
async function run(
  operationId: string,
  principal: Principal,
  input: Record<string, unknown>,
  customerToken?: string,
): Promise<any> {
  const outcome = await execute(operationId, principal, input, { customerToken: () => customerToken });
  if (outcome.body === null) return null;
  return JSON.parse(outcome.body).data;
}

/** The ApiError a call is refused with. */
async function refusal(pending: Promise<unknown>): Promise<ApiError> {
  try {
    await pending;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error("expected the call to be refused");
}

const apiKeyCaller = (orgId: string, scopes: Caller["scopes"] = ["admin", "storefront"]): Caller => ({
  type: "api-key",
  orgId,
  scopes,
  id: "key:test",
});

// ---------------------------------------------------------------- fixtures

interface Fixtures {
  orgA: string;
  orgB: string;
  admin: Principal;
  adminB: Principal;
  shippingMethodId: string;
  shippingMethodToDelete: string;
  couponId: string;
  couponToDelete: string;
  categoryId: string;
  categoryToDelete: string;
  productId: string;
  productSlug: string;
  variantId: string;
  productToDelete: string;
  mediaId: string;
  mediaToDelete: string;
  domainToRemove: string;
  agentToRevoke: { orgId: string; id: string };
  /** An event fanned out to `webhookEndpointId`, whose delivery (to a closed port) is `webhookDeliveryId`. */
  eventId: string;
  webhookEndpointId: string;
  webhookDeliveryId: string;
  webhookEndpointToDelete: string;
  /** ACP platforms of the shop: one to change, one to delete. */
  acpPlatformId: string;
  acpPlatformToDelete: string;
  /** A cart with one item, a PT shipping address and the PT shipping method. */
  cartId: string;
  cartItemId: string;
  cartForRemoveItem: { id: string; itemId: string };
  cartWithCoupon: string;
  cartToPlace: string;
  /** Checkout sessions of the test key: one with a line, one ready to complete, one to cancel. */
  sessionId: string;
  sessionToComplete: string;
  sessionToCancel: string;
  /** The order a completed session of the test key placed. */
  sessionOrderId: string;
  customer: { id: string; email: string; token: string; tokenToSignOut: string };
  /** Placed by the signed-in customer, from a cart its session owned. */
  ownedOrderId: string;
  orderToFulfill: string;
  orderToMarkPaid: string;
  orderToRefund: string;
  orderToCancel: string;
  /** Card orders: one to pay again, one whose shopper comes back from Stripe. */
  cardOrderToRetry: string;
  cardOrderToConfirm: { id: string; sessionId: string };
  /** A Stripe event about no payment of ours, signed with the platform's secret. */
  stripeNotification: { body: Uint8Array; signature: string };
  dashboard: {
    email: string;
    user: DashboardUser;
    userToSignOut: DashboardUser;
    organizationId: string;
    keyToRevoke: string;
  };
  /** Password reset and invitation links, as their emails would carry them. */
  links: {
    customerResetToken: string;
    userResetToken: string;
    invitationToLookUp: string;
    invitationToAccept: { token: string; user: DashboardUser };
    invitationToRevoke: string;
    memberToPromote: string;
    memberToRemove: string;
  };
}

/**
 * Tokens of password reset and invitation links. The emails that carry them need SMTP, so the
 * reset rows are stored as the services store them (the token's SHA-256) and invitations made by
 * the service that returns their token.
 */
async function linkFixtures(
  orgA: string,
  organizationId: string,
  owner: DashboardUser,
): Promise<Fixtures["links"]> {
  const platform = t.app.ctx.platform;
  const now = Date.now();
  const resetCustomer = await run(
    "signUpCustomer",
    { caller: apiKeyCaller(orgA) },
    {
      email: "reset@example.com",
      password: PASSWORD,
    },
  );
  const customerResetToken = "c".repeat(43);
  await t.app.ctx.tenants.with(orgA, (tenant) =>
    tenant.sqlite
      .query(
        "INSERT INTO customer_password_resets (id, customer_id, token_hash, expires_at, created_at) VALUES (?, ?, ?, ?, ?)",
      )
      .run("cpr_executor", resetCustomer.customer.id, sha256Hex(customerResetToken), now + 60_000, now),
  );
  const [resetUser, invitee, promoted, removed] = await Promise.all(
    ["reset-owner", "invitee", "promoted", "removed"].map((name) =>
      createUser(platform, { email: `${name}@example.com`, password: PASSWORD }),
    ),
  );
  const userResetToken = "u".repeat(43);
  platform.sqlite
    .query(
      "INSERT INTO password_resets (id, user_id, token_hash, expires_at, created_at) VALUES (?, ?, ?, ?, ?)",
    )
    .run("pwr_executor", resetUser!.id, sha256Hex(userResetToken), now + 60_000, now);
  addMember(platform, organizationId, promoted!.id, "member");
  addMember(platform, organizationId, removed!.id, "member");
  const manager = { role: "owner" as const, userId: owner.userId };
  const invite = (org: string, email: string) =>
    createInvitation(platform, org, { email, role: "member" }, manager);
  const { session } = createSession(platform, invitee!.id, null);
  return {
    customerResetToken,
    userResetToken,
    invitationToLookUp: invite(orgA, "looked-up@example.com").token,
    invitationToAccept: {
      token: invite(organizationId, "invitee@example.com").token,
      user: { userId: invitee!.id, sessionId: session.id, activeOrganizationId: null },
    },
    invitationToRevoke: invite(orgA, "revoked@example.com").invitation.id,
    memberToPromote: promoted!.id,
    memberToRemove: removed!.id,
  };
}

let F: Fixtures;

async function readyCart(admin: Principal, shippingMethodId: string, variantId: string, token?: string) {
  const cart = await run(
    "createCart",
    admin,
    { ...(token ? {} : { email: "buyer@example.com" }), items: [{ variantId, quantity: 1 }] },
    token,
  );
  await run("setCartShippingAddress", admin, { id: cart.id, ...PT_ADDRESS }, token);
  await run("setCartShippingMethod", admin, { id: cart.id, shippingMethodId }, token);
  return cart as { id: string; items: { id: string }[] };
}

/** A small PNG stored through `adminUploadMedia`, the file handed over as the transport would. */
async function uploaded(admin: Principal): Promise<{ id: string }> {
  const outcome = await execute(
    "adminUploadMedia",
    admin,
    {},
    { file: uploadedFile(png(3, 3), "image/png") },
  );
  return JSON.parse(outcome.body!).data;
}

async function placedOrder(
  admin: Principal,
  shippingMethodId: string,
  variantId: string,
  token?: string,
  paymentMethodId = "manual_bank_transfer",
) {
  const cart = await readyCart(admin, shippingMethodId, variantId, token);
  const order = await run("placeOrder", admin, { id: cart.id, paymentMethodId }, token);
  return order.id as string;
}

beforeAll(async () => {
  stripe = fakeStripe();
  t = makeTestApp({
    env: {
      STRIPE_API_BASE: stripe.url,
      STRIPE_SECRET_KEY: "sk_test_executor",
      STRIPE_PUBLISHABLE_KEY: "pk_test_executor",
      STRIPE_WEBHOOK_SECRET,
      CHECKOUT_API_SECRET: CHECKOUT_SECRET,
      WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true",
    },
  });
  const orgA = (await t.org("Executor Shop A")).id;
  const orgB = (await t.org("Executor Shop B")).id;
  const admin: Principal = { caller: apiKeyCaller(orgA) };
  const adminB: Principal = { caller: apiKeyCaller(orgB) };

  await run("adminUpdateStore", admin, {
    locales: ["en", "pt"],
    taxRates: [{ country: "PT", rate: 2300 }],
    manualPaymentMethods: ["bank_transfer"],
  });
  const shipping = await run("adminCreateShippingMethod", admin, {
    name: { en: "Portugal" },
    price: 490,
    countries: ["PT"],
  });
  const shippingToDelete = await run("adminCreateShippingMethod", admin, {
    name: { en: "Retired" },
    price: 990,
    countries: [],
  });
  const coupon = await run("adminCreateCoupon", admin, { code: "WELCOME10", type: "percentage", value: 10 });
  const couponToDelete = await run("adminCreateCoupon", admin, { code: "GONE5", type: "fixed", value: 500 });
  const category = await run("adminCreateCategory", admin, { name: { en: "Shirts" } });
  const categoryToDelete = await run("adminCreateCategory", admin, { name: { en: "Old stuff" } });
  const product = await run("adminCreateProduct", admin, {
    name: { en: "Tee" },
    categoryIds: [category.id],
    variants: [{ sku: "TEE-1", price: 2000, inventory: { onHand: 100 } }],
  });
  const productToDelete = await run("adminCreateProduct", admin, {
    name: { en: "Discontinued" },
    variants: [{ price: 100 }],
  });
  const variantId = product.variants[0].id as string;
  const [media, mediaToDelete] = await Promise.all([uploaded(admin), uploaded(admin)]);
  const domainToRemove = await run("adminAddDomain", admin, { host: "removed.executor.example" });
  // An agent approved through the real Agent Auth flow, in a shop of its own.
  const agentMerchant = await newMerchant(t, "agents@executor.example", "Agents Shop");
  const agentToRevoke = await activeAgent(t, agentMerchant);

  const cart = await readyCart(admin, shipping.id, variantId);
  const cartForRemoveItem = await run("createCart", admin, { items: [{ variantId, quantity: 1 }] });
  const cartWithCoupon = await run("createCart", admin, { items: [{ variantId, quantity: 1 }] });
  await run("applyCartCoupon", admin, { id: cartWithCoupon.id, code: "WELCOME10" });
  const cartToPlace = await readyCart(admin, shipping.id, variantId);
  const readySession = {
    lines: [{ variantId, quantity: 1 }],
    buyer: { email: "buyer@example.com" },
    shippingAddress: PT_ADDRESS,
    shippingMethodId: shipping.id,
    paymentMethodId: "manual_bank_transfer",
  };
  const [session, sessionToComplete, sessionToCancel, sessionPlaced] = await Promise.all([
    run("openCheckoutSession", admin, { lines: [{ variantId, quantity: 1 }] }),
    run("openCheckoutSession", admin, readySession),
    run("openCheckoutSession", admin, readySession),
    run("openCheckoutSession", admin, readySession),
  ]);
  const sessionOrder = await run("completeCheckoutSession", admin, { id: sessionPlaced.id });

  const account = await run("signUpCustomer", admin, {
    email: "ana@example.com",
    password: PASSWORD,
    firstName: "Ana",
  });
  const secondSession = await run("signInCustomer", admin, { email: "ana@example.com", password: PASSWORD });
  const ownedOrderId = await placedOrder(admin, shipping.id, variantId, account.token);
  const orderToFulfill = await placedOrder(admin, shipping.id, variantId);
  const orderToMarkPaid = await placedOrder(admin, shipping.id, variantId);
  const orderToRefund = await placedOrder(admin, shipping.id, variantId);
  await run("adminMarkOrderPaid", admin, { id: orderToRefund });
  const orderToCancel = await placedOrder(admin, shipping.id, variantId);
  const cardOrderToRetry = await placedOrder(admin, shipping.id, variantId, undefined, "stripe_card");
  const cardOrderToConfirm = await placedOrder(admin, shipping.id, variantId, undefined, "stripe_card");
  const sessionId = (await run("adminGetOrder", admin, { id: cardOrderToConfirm })).payment.action.url
    .split("/")
    .at(-1) as string;
  await run("adminPutIntegration", admin, {
    provider: "ifthenpay",
    fields: { antiPhishingKey: "first-key" },
  });

  const hook = { url: "http://127.0.0.1:9/hooks", events: ["*"] };
  const webhookEndpoint = await run("adminCreateWebhookEndpoint", admin, hook);
  const webhookEndpointToDelete = await run("adminCreateWebhookEndpoint", admin, hook);
  const acpPlatform = await run("adminCreateAcpPlatform", admin, { name: "Assistant" });
  const acpPlatformToDelete = await run("adminCreateAcpPlatform", admin, { name: "Gone" });
  const eventId = await t.app.ctx.tenants.with(orgA, (tenant) =>
    immediately(tenant.sqlite, () => recordEvent(tenant, "product.deleted", { id: "prod_executor" })),
  );
  const [webhookDelivery] = await run("adminListWebhookDeliveries", admin, { id: webhookEndpoint.id });

  // A dashboard user, signed up through the executor: its outcome body holds the session.
  const email = "owner@example.com";
  const signedUp = await run("signUpEmail", {}, { email, password: PASSWORD });
  const user: DashboardUser = {
    userId: signedUp.user.id,
    sessionId: signedUp.session.id,
    activeOrganizationId: signedUp.session.activeOrganizationId,
  };
  const dashOrg = await run("createOrganization", { user }, { name: "Dashboard Store" });
  // The transport resolves the user from the session on each request: the organization is now active.
  user.activeOrganizationId = dashOrg.id;
  const key = await run("createApiKey", { user }, { name: "to revoke", organizationId: dashOrg.id });
  const otherSession = await run("signInEmail", {}, { email, password: PASSWORD });
  const notification = JSON.stringify(stripeEvent("checkout.session.expired", { id: "cs_unknown" }));
  const signature = await stripeHeader(notification, STRIPE_WEBHOOK_SECRET, Math.floor(Date.now() / 1000));

  F = {
    orgA,
    orgB,
    admin,
    adminB,
    shippingMethodId: shipping.id,
    shippingMethodToDelete: shippingToDelete.id,
    couponId: coupon.id,
    couponToDelete: couponToDelete.id,
    categoryId: category.id,
    categoryToDelete: categoryToDelete.id,
    productId: product.id,
    productSlug: product.slug,
    variantId,
    productToDelete: productToDelete.id,
    mediaId: media.id,
    mediaToDelete: mediaToDelete.id,
    domainToRemove: domainToRemove.host,
    agentToRevoke: { orgId: agentMerchant.orgId, id: agentToRevoke.id },
    eventId,
    webhookEndpointId: webhookEndpoint.id,
    webhookDeliveryId: webhookDelivery.id,
    webhookEndpointToDelete: webhookEndpointToDelete.id,
    acpPlatformId: acpPlatform.id,
    acpPlatformToDelete: acpPlatformToDelete.id,
    cartId: cart.id,
    cartItemId: cart.items[0]!.id,
    cartForRemoveItem: { id: cartForRemoveItem.id, itemId: cartForRemoveItem.items[0].id },
    cartWithCoupon: cartWithCoupon.id,
    cartToPlace: cartToPlace.id,
    sessionId: session.id,
    sessionToComplete: sessionToComplete.id,
    sessionToCancel: sessionToCancel.id,
    sessionOrderId: sessionOrder.order.id,
    customer: {
      id: account.customer.id,
      email: "ana@example.com",
      token: account.token,
      tokenToSignOut: secondSession.token,
    },
    ownedOrderId,
    orderToFulfill,
    orderToMarkPaid,
    orderToRefund,
    orderToCancel,
    cardOrderToRetry,
    cardOrderToConfirm: { id: cardOrderToConfirm, sessionId },
    stripeNotification: { body: new TextEncoder().encode(notification), signature },
    dashboard: {
      email,
      user,
      userToSignOut: { ...user, sessionId: otherSession.session.id },
      organizationId: dashOrg.id,
      keyToRevoke: key.id,
    },
    links: await linkFixtures(orgA, dashOrg.id, user),
  };
});

afterAll(() => {
  t?.cleanup();
  stripe?.stop();
});

// ---------------------------------------------------------------- the table

const admin = (input: Record<string, unknown> = {}, expectStatus: Row["expectStatus"] = 200): Row => ({
  principal: F.admin,
  input,
  expectStatus,
});
const storefront = admin; // the test key holds both scopes
const publicRow = (input: Record<string, unknown> = {}, expectStatus: Row["expectStatus"] = 200): Row => ({
  principal: {},
  input,
  expectStatus,
});
const userRow = (
  input: Record<string, unknown> = {},
  expectStatus: Row["expectStatus"] = 200,
  user: DashboardUser = F.dashboard.user,
): Row => ({ principal: { user }, input, expectStatus });
/** A webhook call: no principal; a readiness GET without headers or body, else the signed notification. */
const webhookRow = (input: Record<string, unknown>, headers: Record<string, string> = {}): Row => ({
  principal: {},
  input,
  expectStatus: 200,
  delivery: {
    headers: new Headers(headers),
    rawBody: headers["stripe-signature"] ? F.stripeNotification.body : new Uint8Array(),
  },
});
const signed = () => ({ "stripe-signature": F.stripeNotification.signature });

/**
 * One row per operation, run in this order: reads first, then writes on shared fixtures, then
 * writes that end something (each on a resource of its own).
 */
const table: Record<string, () => Row> = {
  // service
  getHealth: () => publicRow(),
  getMe: () => admin(),

  // payment webhooks: readiness, and a `_` notification verified but about nothing of ours
  paymentWebhookGet: () => webhookRow({ provider: "stripe", org: F.orgA }),
  paymentWebhookIngressGet: () => webhookRow({ provider: "easypay", org: F.orgA }),
  paymentWebhook: () =>
    webhookRow({ provider: "stripe", org: "_" }, { ...signed(), "x-checkout-secret": CHECKOUT_SECRET }),
  paymentWebhookIngress: () => webhookRow({ provider: "stripe", org: "_" }, signed()),

  // storefront reads
  listProducts: () => storefront(),
  getProduct: () => storefront({ id: F.productSlug }),
  listCategories: () => storefront(),
  getStore: () => storefront(),
  listCountries: () => storefront({ locale: "pt" }),
  getCart: () => storefront({ id: F.cartId }),
  listCartShippingMethods: () => storefront({ id: F.cartId }),
  listCartPaymentMethods: () => storefront({ id: F.cartId }),
  listOrders: () => ({ ...storefront(), customerToken: F.customer.token }),
  getOrder: () => storefront({ id: F.ownedOrderId }),
  getAccount: () => ({ ...storefront(), customerToken: F.customer.token }),
  getMediaFile: () => storefront({ id: F.mediaId }),

  // admin reads
  adminListProducts: () => admin({ status: "active" }),
  adminGetProduct: () => admin({ id: F.productId }),
  adminListCategories: () => admin(),
  adminGetStore: () => admin(),
  adminListCoupons: () => admin({ query: "welcome" }),
  adminGetCoupon: () => admin({ id: F.couponId }),
  adminListShippingMethods: () => admin(),
  adminGetShippingMethod: () => admin({ id: F.shippingMethodId }),
  adminListOrders: () => admin({ page: 1, limit: 10 }),
  adminGetOrder: () => admin({ id: F.orderToFulfill }),
  adminListCustomers: () => admin({ query: "ana" }),
  adminGetCustomer: () => admin({ id: F.customer.id }),
  adminDashboardStats: () => admin(),
  adminListIntegrations: () => admin(),
  adminGetIntegration: () => admin({ provider: "stripe" }),
  adminGetReadiness: () => admin(),
  adminPreviewEmail: () => admin({ template: "order_shipped", locale: "pt" }),
  adminListMedia: () => admin(),
  adminListDomains: () => admin(),
  // The dashboard user's organization, which has a member.
  adminListAgents: () => admin(),
  adminListMembers: () => ({ ...admin(), principal: { caller: apiKeyCaller(F.dashboard.organizationId) } }),
  adminExportProducts: () => admin(),
  adminListEvents: () => admin({ type: "product.deleted" }),
  adminGetEvent: () => admin({ id: F.eventId }),
  adminListWebhookEndpoints: () => admin(),
  adminListAcpPlatforms: () => admin(),
  adminGetWebhookEndpoint: () => admin({ id: F.webhookEndpointId }),
  adminListWebhookDeliveries: () => admin({ id: F.webhookEndpointId }),
  adminListInvitations: () => admin(),

  // dashboard reads
  getSession: () => userRow(),
  listOrganizations: () => userRow(),
  listApiKeys: () => userRow({ organizationId: F.dashboard.organizationId }),

  // admin writes
  adminCreateProduct: () => admin({ name: { en: "Mug" }, variants: [{ price: 900 }] }, 201),
  adminUpdateProduct: () => admin({ id: F.productId, tags: ["cotton"] }),
  adminCreateCategory: () => admin({ name: { en: "Mugs" } }, 201),
  adminUpdateCategory: () => admin({ id: F.categoryId, position: 2 }),
  adminUpdateStore: () => admin({ contactEmail: "shop@example.com" }),
  adminUpdateInventory: () => admin({ variantId: F.variantId, adjust: 5 }),
  adminUploadMedia: () => ({
    ...admin({}, 201),
    delivery: { file: uploadedFile(png(2, 2), "image/png") },
  }),
  adminCreateCoupon: () => admin({ code: "SHIPFREE", type: "free_shipping" }, 201),
  adminUpdateCoupon: () => admin({ id: F.couponId, minSubtotal: 1000 }),
  adminCreateShippingMethod: () => admin({ name: { en: "Express" }, price: 1200, countries: ["PT"] }, 201),
  adminUpdateShippingMethod: () => admin({ id: F.shippingMethodId, minDays: 1, maxDays: 3 }),
  adminPutIntegration: () => admin({ provider: "ifthenpay", fields: { antiPhishingKey: "second-key" } }),
  adminAddDomain: () => admin({ host: "added.executor.example" }, 201),
  adminInviteMember: () => admin({ email: "invited@example.com", role: "admin" }, 201),
  adminUpdateMember: () => ({
    ...admin({ userId: F.links.memberToPromote, role: "admin" }),
    principal: { caller: apiKeyCaller(F.dashboard.organizationId) },
  }),
  adminCreateWebhookEndpoint: () =>
    admin({ url: "http://localhost:9/new", events: ["order.paid"], description: "ERP" }, 201),
  adminUpdateWebhookEndpoint: () => admin({ id: F.webhookEndpointId, description: "Accounting" }),
  adminRotateWebhookSecret: () => admin({ id: F.webhookEndpointId }),
  adminCreateAcpPlatform: () =>
    admin({ name: "Another assistant", webhookUrl: "http://localhost:9/acp" }, 201),
  adminUpdateAcpPlatform: () => admin({ id: F.acpPlatformId, name: "Assistant (live)" }),
  adminRotateAcpPlatformToken: () => admin({ id: F.acpPlatformId }),
  // Both answer what the closed port did: the operations succeed whatever the receiver does.
  adminPingWebhookEndpoint: () => admin({ id: F.webhookEndpointId }),
  adminRetryWebhookDelivery: () => admin({ id: F.webhookEndpointId, deliveryId: F.webhookDeliveryId }),
  adminImportProducts: () =>
    admin({ csv: "slug,name.en,sku,price\nexecutor-mug,Executor mug,EXEC-MUG,9.00\n" }),

  // cart writes
  createCart: () =>
    storefront({ email: "new@example.com", items: [{ variantId: F.variantId, quantity: 1 }] }, 201),
  addCartItem: () => storefront({ id: F.cartId, variantId: F.variantId, quantity: 1 }),
  updateCartItem: () => storefront({ id: F.cartId, itemId: F.cartItemId, quantity: 3 }),
  applyCartCoupon: () => storefront({ id: F.cartId, code: "welcome10" }),
  setCartShippingAddress: () => storefront({ id: F.cartId, ...PT_ADDRESS }),
  setCartShippingMethod: () => storefront({ id: F.cartId, shippingMethodId: F.shippingMethodId }),
  setCartBillingAddress: () => storefront({ id: F.cartId, ...PT_ADDRESS, line1: "Rua Nova 2" }),
  removeCartItem: () => storefront({ id: F.cartForRemoveItem.id, itemId: F.cartForRemoveItem.itemId }),
  removeCartCoupon: () => storefront({ id: F.cartWithCoupon }),
  placeOrder: () => storefront({ id: F.cartToPlace, paymentMethodId: "manual_bank_transfer" }, 201),
  getCheckoutSession: () => storefront({ id: F.sessionId }),
  openCheckoutSession: () => storefront({ lines: [{ variantId: F.variantId, quantity: 2 }] }, 201),
  updateCheckoutSession: () => storefront({ id: F.sessionId, buyer: { email: "new@example.com" } }),
  cancelCheckoutSession: () => storefront({ id: F.sessionToCancel }),
  completeCheckoutSession: () => storefront({ id: F.sessionToComplete }),
  getCheckoutSessionOfOrder: () => storefront({ orderId: F.sessionOrderId }),

  // storefront accounts
  signUpCustomer: () => storefront({ email: "rui@example.com", password: PASSWORD }, 201),
  signInCustomer: () => storefront({ email: F.customer.email, password: PASSWORD }),
  signOutCustomer: () => ({ ...storefront(), customerToken: F.customer.tokenToSignOut }),
  requestCustomerPasswordReset: () =>
    storefront({ email: F.customer.email, resetUrl: "http://localhost:3000/account/reset" }, 202),
  confirmCustomerPasswordReset: () =>
    storefront({ token: F.links.customerResetToken, password: "a new passphrase" }, 204),

  // order transitions, each on its own order
  adminFulfillOrder: () => admin({ id: F.orderToFulfill, carrier: "CTT", trackingNumber: "RR123PT" }),
  adminMarkOrderPaid: () => admin({ id: F.orderToMarkPaid }),
  adminRefundOrder: () => admin({ id: F.orderToRefund, amount: 100, reason: "Damaged" }),
  adminCancelOrder: () => admin({ id: F.orderToCancel }),
  retryOrderPayment: () => storefront({ id: F.cardOrderToRetry }),
  confirmOrderPayment: () =>
    storefront({ id: F.cardOrderToConfirm.id, sessionId: F.cardOrderToConfirm.sessionId }),

  // deletes, each of its own resource
  adminDeleteProduct: () => admin({ id: F.productToDelete }, 204),
  adminDeleteMedia: () => admin({ id: F.mediaToDelete }, 204),
  adminDeleteWebhookEndpoint: () => admin({ id: F.webhookEndpointToDelete }, 204),
  adminDeleteAcpPlatform: () => admin({ id: F.acpPlatformToDelete }, 204),
  adminRemoveDomain: () => admin({ host: F.domainToRemove }, 204),
  adminRevokeInvitation: () => admin({ id: F.links.invitationToRevoke }, 204),
  adminRemoveMember: () => ({
    ...admin({ userId: F.links.memberToRemove }, 204),
    principal: { caller: apiKeyCaller(F.dashboard.organizationId) },
  }),
  adminRevokeAgent: () => ({
    ...admin({ id: F.agentToRevoke.id }),
    principal: { caller: apiKeyCaller(F.agentToRevoke.orgId) },
  }),
  adminDeleteCategory: () => admin({ id: F.categoryToDelete }, 204),
  adminDeleteCoupon: () => admin({ id: F.couponToDelete }, 204),
  adminDeleteShippingMethod: () => admin({ id: F.shippingMethodToDelete }, 204),
  adminDeleteIntegration: () => admin({ provider: "ifthenpay" }, 204),

  // dashboard auth
  signUpEmail: () => publicRow({ email: "second-owner@example.com", password: PASSWORD }, 201),
  signInEmail: () => publicRow({ email: F.dashboard.email, password: PASSWORD }),
  createOrganization: () => userRow({ name: "Another Store" }, 201),
  setActiveOrganization: () => userRow({ organizationId: F.dashboard.organizationId }),
  createApiKey: () =>
    userRow({ name: "ci", scopes: ["storefront"], organizationId: F.dashboard.organizationId }, 201),
  revokeApiKey: () => userRow({ keyId: F.dashboard.keyToRevoke }),
  signOut: () => userRow({}, 200, F.dashboard.userToSignOut),
  requestPasswordReset: () => publicRow({ email: F.dashboard.email }, 202),
  confirmPasswordReset: () => publicRow({ token: F.links.userResetToken, password: "a new passphrase" }, 204),
  lookupInvitation: () => publicRow({ token: F.links.invitationToLookUp }),
  // Signed in as the invited email (the transport resolves the optional session).
  acceptInvitation: () => ({
    ...publicRow({ token: F.links.invitationToAccept.token }),
    principal: { user: F.links.invitationToAccept.user },
  }),
};

describe("every declared operation runs through the executor", () => {
  test("the table covers exactly the declared operations", () => {
    const declared = t.app.operations.map((op) => op.operationId).sort();
    const rows = Object.keys(table).sort();
    expect(rows.filter((id) => !declared.includes(id))).toEqual([]); // stale rows
    expect(declared.filter((id) => !rows.includes(id))).toEqual([]); // operations without a row
    expect(rows).toEqual(declared);
  });

  for (const [operationId, row] of Object.entries(table)) {
    test(operationId, async () => {
      const op = operation(operationId);
      const { principal, input, expectStatus, customerToken, delivery } = row();
      expect(expectStatus).toBe(op.status ?? 200);

      const outcome = await execute(operationId, principal, input, {
        customerToken: () => customerToken,
        ...delivery,
      });
      expect(outcome.status).toBe(op.status ?? 200);
      expect(outcome.replayed).toBe(false);
      if (op.fileResponse) {
        expect(op.fileResponse).toContain(outcome.file!.contentType);
        expect(outcome.file!.bytes.length).toBeGreaterThan(0);
        return;
      }

      if (expectStatus === 204) {
        expect(outcome.body).toBeNull();
        return;
      }
      if (op.textResponse) {
        expect(outcome.body).toStartWith("\uFEFFslug,");
        return;
      }
      expect(outcome.body).not.toBeNull();
      const body = JSON.parse(outcome.body!);
      expect(body).toHaveProperty("data");
      if (op.list) {
        expect(Array.isArray(body.data)).toBe(true);
        expect(body.meta).toEqual({
          page: expect.any(Number),
          limit: expect.any(Number),
          total: expect.any(Number),
        });
        expect(body.data.length).toBeGreaterThan(0);
      } else {
        expect(body).not.toHaveProperty("meta");
      }
      // What came back has the declared shape (each item of a list).
      if (op.response) {
        for (const item of op.list ? body.data : [body.data]) {
          const errors = [...Value.Errors(op.response, item)].map((e) => `${e.path} ${e.message}`);
          expect(errors).toEqual([]);
        }
      }
    });
  }
});

// ---------------------------------------------------------------- executor-level checks

describe("executor checks", () => {
  test("a storefront-only caller running an admin operation is FORBIDDEN", async () => {
    const principal = { caller: { ...apiKeyCaller(F.orgA, ["storefront"]), id: "key:storefront" } };
    const error = await refusal(execute("adminListProducts", principal, {}));
    expect(error.code).toBe("FORBIDDEN");
    expect(error.status).toBe(403);
    const write = await refusal(
      execute("adminCreateCoupon", principal, { code: "NOPE", type: "fixed", value: 1 }),
    );
    expect(write.code).toBe("FORBIDDEN");
  });

  test("no caller or no user is UNAUTHORIZED", async () => {
    expect((await refusal(execute("getMe", {}, {}))).code).toBe("UNAUTHORIZED");
    expect((await refusal(execute("listOrganizations", { caller: apiKeyCaller(F.orgA) }, {}))).code).toBe(
      "UNAUTHORIZED",
    );
  });

  test("a wrong input type is a VALIDATION_ERROR whose path names the part", async () => {
    const body = await refusal(
      execute("adminCreateProduct", F.admin, { name: { en: "X" }, variants: [{ price: "9" }] }),
    );
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(body.details?.[0]?.path).toStartWith("/body/");

    const query = await refusal(execute("adminListProducts", F.admin, { limit: "many" }));
    expect(query.code).toBe("VALIDATION_ERROR");
    expect(query.details?.[0]?.path).toStartWith("/query/");

    const params = await refusal(execute("getCart", F.admin, { id: 42 }));
    expect(params.code).toBe("VALIDATION_ERROR");
    expect(params.details?.[0]?.path).toStartWith("/params/");
  });

  test("an unknown input field on an operation without a body is a VALIDATION_ERROR", async () => {
    const error = await refusal(execute("getStore", F.admin, { colour: "red" }));
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.details?.[0]?.path).toEndWith("/colour");
    const onDelete = await refusal(execute("adminDeleteCoupon", F.admin, { id: F.couponId, force: true }));
    expect(onDelete.code).toBe("VALIDATION_ERROR");
    // Nothing was deleted.
    expect((await run("adminGetCoupon", F.admin, { id: F.couponId })).id).toBe(F.couponId);
  });

  test("the same Idempotency-Key replays the stored answer; another input with it is a conflict", async () => {
    const input = { code: "ONCE20", type: "percentage", value: 20 };
    const first = await execute("adminCreateCoupon", F.admin, input, { idempotencyKey: "coupon-once-1" });
    expect(first.status).toBe(201);
    expect(first.replayed).toBe(false);
    const again = await execute("adminCreateCoupon", F.admin, input, { idempotencyKey: "coupon-once-1" });
    expect(again.replayed).toBe(true);
    expect(again.status).toBe(201);
    expect(again.body).toBe(first.body);
    const listed = await execute("adminListCoupons", F.admin, { query: "ONCE20" });
    expect(JSON.parse(listed.body!).meta.total).toBe(1);

    const other = await refusal(
      execute("adminCreateCoupon", F.admin, { ...input, value: 30 }, { idempotencyKey: "coupon-once-1" }),
    );
    expect(other.code).toBe("IDEMPOTENCY_CONFLICT");
  });

  test("a caller of org B using ids of org A's resources gets NOT_FOUND", async () => {
    const reads: [string, Record<string, unknown>][] = [
      ["adminGetProduct", { id: F.productId }],
      ["getProduct", { id: F.productId }],
      ["adminGetCoupon", { id: F.couponId }],
      ["adminGetOrder", { id: F.ownedOrderId }],
      ["getOrder", { id: F.ownedOrderId }],
      ["getCart", { id: F.cartId }],
      ["adminGetCustomer", { id: F.customer.id }],
    ];
    for (const [operationId, input] of reads) {
      const error = await refusal(execute(operationId, F.adminB, input));
      expect({ operationId, code: error.code }).toEqual({ operationId, code: "NOT_FOUND" });
    }
    const write = await refusal(
      execute("adminUpdateProduct", F.adminB, { id: F.productId, tags: ["stolen"] }),
    );
    expect(write.code).toBe("NOT_FOUND");
    const product = await run("adminGetProduct", F.admin, { id: F.productId });
    expect(product.tags).not.toContain("stolen");
  });
});
