import { Type } from "@sinclair/typebox";
import { countPasswordResetRequest, countSignUp, limitedSignIn } from "../auth/abuse.ts";
import { ResetRequested } from "../auth/account-routes.ts";
import { hashPassword } from "../auth/crypto.ts";
import { Email, Password } from "../auth/schema.ts";
import { normalizeEmail } from "../auth/service.ts";
import { Money } from "../catalog/schema.ts";
import { ApiError } from "../core/errors.ts";
import { type CookieToSet, defineOperation, type Operation, Paged, Reply } from "../core/operation.ts";
import { Body, Id, Nullable, named, PageQuery, pageOf, Text, Timestamp } from "../core/schemas.ts";
import { OrderStatus, PaymentStatus } from "../orders/schema.ts";
import {
  CUSTOMER_SESSION_TTL_MS,
  createAccount,
  endCustomerSession,
  findAccount,
  startCustomerSession,
  verifyAccountPassword,
} from "./accounts.ts";
import { CUSTOMER_COOKIE } from "./customer-session.ts";
import { getCustomer, listCustomers } from "./customers.ts";
import {
  confirmCustomerPasswordReset,
  customerOfResetToken,
  requestCustomerPasswordReset,
} from "./password-reset.ts";

/** Storefront accounts and admin customers. */

const ACCOUNTS = "Accounts";
const ADMIN_CUSTOMERS = "Admin: customers";

// ---------------------------------------------------------------- schemas

const Account = named(
  "Account",
  Type.Object({
    id: Type.String(),
    email: Type.String(),
    firstName: Nullable(Type.String()),
    lastName: Nullable(Type.String()),
    hasAccount: Type.Literal(true),
  }),
);

const AccountSession = Type.Object({
  customer: Account,
  token: Type.String({
    description:
      "The session token (also set as the `customer_session` cookie); send it as `x-customer-session`",
  }),
});

const Name = Text({ min: 1, max: 200 });
const SignUpBody = Body({
  email: Email,
  password: Password,
  firstName: Type.Optional(Name),
  lastName: Type.Optional(Name),
});
const SignInBody = Body({ email: Email, password: Text({ min: 1, max: 256 }) });

export const Customer = named(
  "Customer",
  Type.Object({
    id: Type.String(),
    email: Type.String(),
    firstName: Nullable(Type.String()),
    lastName: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    hasAccount: Type.Boolean(),
    ordersCount: Type.Integer({ description: "Orders that are not cancelled" }),
    totalSpent: Money,
    lastOrderAt: Nullable(Timestamp),
    createdAt: Timestamp,
  }),
);

const OrderSummary = Type.Object({
  id: Type.String(),
  number: Type.Integer(),
  status: OrderStatus,
  paymentStatus: PaymentStatus,
  total: Money,
  placedAt: Timestamp,
});

const CustomerDetail = Type.Intersect([
  Customer,
  Type.Object({
    recentOrders: Type.Array(OrderSummary, { description: "The last 10 orders, newest first" }),
  }),
]);

const ListCustomersQuery = Type.Object({
  query: Type.Optional(Text({ max: 200, description: "Part of the email, first, last or full name" })),
  ...PageQuery,
});
const CustomerIdParams = Type.Object({ id: Id("cus") });

// ---------------------------------------------------------------- storefront accounts

const sessionCookie = (token: string): CookieToSet => ({
  name: CUSTOMER_COOKIE,
  value: token,
  maxAgeSeconds: token ? CUSTOMER_SESSION_TTL_MS / 1000 : 0,
});

const signUpOp = defineOperation({
  method: "POST",
  path: "/v1/account/sign-up",
  operationId: "signUpCustomer",
  summary: "Create a storefront account and sign in",
  description:
    "Sets the httpOnly `customer_session` cookie and returns the token. An email that already has an " +
    "account is a 409. Orders placed as a guest with the same email are not attached to the account. " +
    "Past `SIGNUP_RATE_LIMIT_PER_HOUR` sign-ups per client address, a 429 `RATE_LIMITED`.",
  tag: ACCOUNTS,
  access: "storefront",
  agent: false,
  answerHoldsSecret: true,
  status: 201,
  errors: ["CONFLICT", "RATE_LIMITED", "UNAVAILABLE"],
  body: SignUpBody,
  response: AccountSession,
  prepare: (call) => {
    countSignUp(call.ctx, call.client);
    return hashPassword(call.body.password);
  },
  handler: (call) => {
    const result = createAccount(call.tenant, call.body, call.prepared);
    return new Reply(result, { cookies: [sessionCookie(result.token)] });
  },
});

const signInOp = defineOperation({
  method: "POST",
  path: "/v1/account/sign-in",
  operationId: "signInCustomer",
  summary: "Sign in to a storefront account",
  description:
    "Sets the httpOnly `customer_session` cookie and returns the token. Wrong credentials are a 401 that " +
    "never says whether the email exists. 429 `RATE_LIMITED` after 10 failures per client address and " +
    "email in 15 minutes, or past `SIGNIN_RATE_LIMIT_PER_HOUR` attempts per address whatever the email.",
  tag: ACCOUNTS,
  access: "storefront",
  agent: false,
  answerHoldsSecret: true,
  errors: ["RATE_LIMITED", "UNAVAILABLE"],
  body: SignInBody,
  response: AccountSession,
  prepare: async (call) => {
    const { email, password } = call.body;
    const customer = await limitedSignIn(
      call.ctx,
      call.client,
      `${call.caller.orgId}|${normalizeEmail(email)}`,
      () => verifyAccountPassword(call.tenant, email, password),
    );
    if (!customer) throw new ApiError("UNAUTHORIZED", "Wrong email or password");
    return customer;
  },
  handler: (call) => {
    const token = startCustomerSession(call.tenant, call.prepared.id);
    return new Reply({ customer: call.prepared, token }, { cookies: [sessionCookie(token)] });
  },
});

const signOutOp = defineOperation({
  method: "POST",
  path: "/v1/account/sign-out",
  operationId: "signOutCustomer",
  summary: "End the storefront session",
  description:
    "Ends the session of the `customer_session` cookie or `x-customer-session` header; 401 without one.",
  tag: ACCOUNTS,
  access: "storefront",
  customerSession: "required",
  agent: false,
  response: Type.Object({ success: Type.Boolean() }),
  handler: (call) => {
    const customer = call.customer;
    if (!customer) throw new ApiError("UNAUTHORIZED", "Not signed in");
    endCustomerSession(call.tenant, customer.sessionId);
    return new Reply({ success: true }, { cookies: [sessionCookie("")] });
  },
});

const getAccountOp = defineOperation({
  method: "GET",
  path: "/v1/account",
  operationId: "getAccount",
  summary: "The signed-in storefront customer",
  description: "401 without a customer session of this store.",
  tag: ACCOUNTS,
  access: "storefront",
  customerSession: "required",
  agent: false,
  response: Type.Object({ customer: Account }),
  handler: ({ tenant, customer: session }) => {
    const customer = session && findAccount(tenant, session.id);
    if (!customer) throw new ApiError("UNAUTHORIZED", "Not signed in");
    return { customer };
  },
});

const requestPasswordResetOp = defineOperation({
  method: "POST",
  path: "/v1/account/password-reset",
  operationId: "requestCustomerPasswordReset",
  summary: "Email a storefront account a link to set a new password",
  description:
    "Always the same 202, whether or not the email has an account of this store, after the same work. " +
    "For an account, the store emails a link valid 30 minutes (older unused links stop working): " +
    "`resetUrl` with `?token=…` added, where `resetUrl` is the storefront's page that asks for the new " +
    "password and must be an https URL on one of the store's `allowedOrigins` (else 422 " +
    "`UNPROCESSABLE`; `http://localhost` is also accepted outside production). The page sends the token " +
    "and the new password to `POST /v1/account/password-reset/confirm`. 429 `RATE_LIMITED` past 5 " +
    "requests an hour per email or 20 per client address.",
  tag: ACCOUNTS,
  access: "storefront",
  agent: false,
  status: 202,
  errors: ["UNPROCESSABLE", "RATE_LIMITED"],
  body: Body({
    email: Email,
    resetUrl: Text({ min: 1, max: 2000, description: "The storefront page the emailed link opens" }),
  }),
  response: ResetRequested,
  examples: { body: { email: "ana@example.com", resetUrl: "https://shop.example.com/account/reset" } },
  handler: (call) => {
    countPasswordResetRequest(
      call.ctx,
      call.client,
      `${call.caller.orgId}|${normalizeEmail(call.body.email)}`,
    );
    requestCustomerPasswordReset(call, call.body);
    return { accepted: true as const };
  },
});

const confirmPasswordResetOp = defineOperation({
  method: "POST",
  path: "/v1/account/password-reset/confirm",
  operationId: "confirmCustomerPasswordReset",
  summary: "Set a new storefront password with a reset link's token",
  description:
    "Sets the password (the rules of sign-up), uses the token and ends every session of the account; " +
    "the shopper then signs in with the new password. A token that is unknown, used, replaced by a " +
    "newer one, expired or another store's is one answer: 400 `TOKEN_INVALID`.",
  tag: ACCOUNTS,
  access: "storefront",
  agent: false,
  status: 204,
  errors: ["TOKEN_INVALID", "UNAVAILABLE"],
  body: Body({
    token: Text({ min: 1, max: 200, description: "The `token` of the emailed link" }),
    password: Password,
  }),
  prepare: (call) => {
    // Checked before the hash, so that an unusable token costs no password hash; checked again when used.
    customerOfResetToken(call.tenant, call.body.token);
    return hashPassword(call.body.password);
  },
  handler: ({ tenant, body, prepared }) => {
    confirmCustomerPasswordReset(tenant, body.token, prepared);
    return undefined;
  },
});

// ---------------------------------------------------------------- admin

const adminListCustomersOp = defineOperation({
  method: "GET",
  path: "/v1/admin/customers",
  operationId: "adminListCustomers",
  summary: "List customers, newest first",
  description:
    "`query` matches part of the email, first, last or full name. `ordersCount` and `lastOrderAt` count " +
    "orders that are not cancelled; `totalSpent` is Σ(total − refunded) over orders whose payment was taken.",
  tag: ADMIN_CUSTOMERS,
  access: "admin",
  list: true,
  query: ListCustomersQuery,
  response: Customer,
  handler: ({ tenant, query }) => {
    const page = pageOf(query);
    const { items, total } = listCustomers(tenant, { query: query.query }, page);
    return new Paged(items, page, total);
  },
});

const adminGetCustomerOp = defineOperation({
  method: "GET",
  path: "/v1/admin/customers/{id}",
  operationId: "adminGetCustomer",
  summary: "Get a customer with its recent orders",
  description: "With its order count, total spent and its 10 most recent orders.",
  tag: ADMIN_CUSTOMERS,
  access: "admin",
  params: CustomerIdParams,
  response: CustomerDetail,
  handler: ({ tenant, params }) => getCustomer(tenant, params.id),
});

export const customerOperations: Operation[] = [
  signUpOp,
  signInOp,
  signOutOp,
  getAccountOp,
  requestPasswordResetOp,
  confirmPasswordResetOp,
  adminListCustomersOp,
  adminGetCustomerOp,
];
