import { Type } from "@sinclair/typebox";
import { countSignUp, limitedSignIn } from "../auth/abuse.ts";
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
  adminListCustomersOp,
  adminGetCustomerOp,
];
