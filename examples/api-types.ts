/**
 * Types of the Commerce API (paths, operations, components), generated from the OpenAPI document
 * served at `/v1/openapi.json` by `bun run client:gen` (scripts/client-gen.ts, openapi-typescript).
 * Do not edit: change the operation declarations and regenerate. `bun test` fails while this file
 * differs from what the current document generates. Used with openapi-fetch:
 *
 *   import createClient from "openapi-fetch";
 *   import type { paths } from "./api-types.ts";
 *   const api = createClient<paths>({ baseUrl: "http://localhost:3000" });
 */

export interface paths {
  "/v1/health": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Health check
     * @description Answers 200 while the control-plane database answers, else 503 `UNAVAILABLE`. `status` is `degraded` (still 200: reads are served, and writes need traffic to be seen succeeding again) while the data directory's free space is low or writes fail; `reasons` then says why.
     */
    get: operations["getHealth"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/me": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The resolved caller
     * @description Which organization, scopes and caller type this request was resolved to.
     */
    get: operations["getMe"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/sign-up/email": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a dashboard account and sign in
     * @description Open only when the operator allows public sign-up (`ALLOW_SIGNUP`, off by default in production): otherwise a 403 `SIGNUP_DISABLED`, and accounts come from the operator's command line. Past `SIGNUP_RATE_LIMIT_PER_HOUR` sign-ups per client address, a 429 `RATE_LIMITED`.
     */
    post: operations["signUpEmail"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/sign-in/email": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in with email and password
     * @description Sets the httpOnly session cookie. Wrong credentials are a 401 that never says which part was wrong. 429 `RATE_LIMITED` after 10 failures per client address and email in 15 minutes, or past `SIGNIN_RATE_LIMIT_PER_HOUR` attempts per address whatever the email.
     */
    post: operations["signInEmail"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/sign-out": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * End the dashboard session
     * @description Deletes the session behind the cookie and clears the cookie; the token stops working at once.
     */
    post: operations["signOut"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/session": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The current dashboard session and user
     * @description The session of the `session_token` cookie with its user and active organization; 401 when the cookie is missing, expired or unknown.
     */
    get: operations["getSession"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/organization/create": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create an organization (a store with its own database)
     * @description The signed-in user becomes its owner; it becomes the session's active organization if none was.
     */
    post: operations["createOrganization"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/organization/list": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Organizations the signed-in user belongs to
     * @description Every organization the user is a member of, with the user's role in each.
     */
    get: operations["listOrganizations"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/organization/set-active": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Choose the organization that dashboard requests act on
     * @description Dashboard requests to `/v1` act on the active organization. An organization the user is not a member of is a 404.
     */
    post: operations["setActiveOrganization"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/api-key/create": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create an API key (Settings → API Keys)
     * @description Owners and admins only. The key is in this response only; the service keeps its SHA-256.
     */
    post: operations["createApiKey"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/api-key/list": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * API keys of an organization
     * @description Any member may list them; `organizationId` defaults to the session's active organization (422 when there is none). Keys show only their first characters (`start`), never the key.
     */
    get: operations["listApiKeys"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/api-key/revoke": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Revoke an API key; it stops working at once
     * @description Owners and admins only (403 for members). A revoked key answers 401 from its next request on.
     */
    post: operations["revokeApiKey"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/password-reset": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Email a dashboard user a link to set a new password
     * @description Always the same 202, whether or not the email has an account, after the same work. For an account, a link to `BASE_URL/dashboard/reset-password?token=…` valid 30 minutes is emailed (older unused links stop working). 429 `RATE_LIMITED` past 5 requests an hour per email or 20 per client address.
     */
    post: operations["requestPasswordReset"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/password-reset/confirm": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Set a new dashboard password with a reset link's token
     * @description Sets the password (the rules of sign-up), uses the token and signs the user out everywhere (every session ends). A token that is unknown, used, replaced by a newer one or expired is one answer: 400 `TOKEN_INVALID`.
     */
    post: operations["confirmPasswordReset"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/invitations/lookup": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * What an invitation link is for
     * @description The organization, email and role of a pending invitation, for the page that accepts it. The token travels in the body, not the URL, so that it stays out of logs. A token that is unknown, used, revoked or expired is 400 `TOKEN_INVALID`.
     */
    post: operations["lookupInvitation"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/invitations/accept": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Join an organization with an invitation
     * @description Signed in (session cookie) as the invited email: `{token}` makes the user a member with the invitation's role and the organization the session's active one (200; another email is a 403). Without a session: `{token, password, name?}` creates the account of the invited email (the password rules of sign-up), signs it in (session cookie) and adds the membership (201); when the email has an account already, a 409 says to sign in first. An invitation is used once: a token that is unknown, used, revoked or expired is 400 `TOKEN_INVALID`; already a member is a 409.
     */
    post: operations["acceptInvitation"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/domains": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The organization's own domains
     * @description Every host that answers for the organization besides `{slug}.{PLATFORM_DOMAIN}`, oldest first (an organization has few, so the list is not paged).
     */
    get: operations["adminListDomains"];
    put?: never;
    /**
     * Add a domain the shop answers on
     * @description The host is stored lower-case and without a trailing dot; point its DNS at the service. A host that is another organization's (or already this one's), that is `{slug}.{PLATFORM_DOMAIN}` of an organization, or that is the service's own is a 409 CONFLICT. It answers at once (`verified`: there is no ownership check by DNS yet). From the dashboard, owners and admins only.
     */
    post: operations["adminAddDomain"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/domains/{host}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove a domain
     * @description The host stops answering for the organization at once. A host that is not this organization's is a 404. From the dashboard, owners and admins only.
     */
    delete: operations["adminRemoveDomain"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/members": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Members of the organization
     * @description Each dashboard user of the organization with their role (`owner`, `admin`, `member`) and when they joined, oldest first. Users join by invitation (`POST /v1/admin/members/invitations`) or are added with the command line (`commerce user create --org`).
     */
    get: operations["adminListMembers"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/members/invitations": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Pending invitations
     * @description Invitations neither accepted, revoked nor expired, newest first (an organization has few, so the list is not paged).
     */
    get: operations["adminListInvitations"];
    put?: never;
    /**
     * Invite someone to the organization by email
     * @description Emails a link to `BASE_URL/dashboard/invitations/accept?token=…`, valid 7 days and used once; accepting it (`POST /api/auth/invitations/accept`) makes the email's user a member with the role. Inviting an email again replaces its pending invitation. An email that is already a member is a 409. From the dashboard, owners and admins only; an admin (or an admin-scoped API key) neither gives the `owner` role nor changes or removes an owner (403).
     */
    post: operations["adminInviteMember"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/members/invitations/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke a pending invitation
     * @description Its link stops working at once. An invitation that is not pending (accepted, revoked, expired) or not this organization's is a 404. From the dashboard, owners and admins only.
     */
    delete: operations["adminRevokeInvitation"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/members/{userId}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove a member from the organization
     * @description The user keeps their account and loses access to this organization at once. Removing the last owner is a 409. From the dashboard, owners and admins only; an admin (or an admin-scoped API key) neither gives the `owner` role nor changes or removes an owner (403).
     */
    delete: operations["adminRemoveMember"];
    options?: never;
    head?: never;
    /**
     * Change a member's role
     * @description Demoting the last owner is a 409: an organization always keeps one. From the dashboard, owners and admins only; an admin (or an admin-scoped API key) neither gives the `owner` role nor changes or removes an owner (403).
     */
    patch: operations["adminUpdateMember"];
    trace?: never;
  };
  "/v1/products": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List active products
     * @description Full-text `query` (prefix matching over names in every locale, descriptions, SKUs and tags; by relevance unless `sort` is given), `categoryId` (includes its subcategories), `sort` = price | name | createdAt, `order` = asc | desc (default asc, desc for createdAt). Without query or sort: newest first.
     */
    get: operations["listProducts"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/products/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an active product by id or slug
     * @description A draft or archived product, or one of another store, is a 404, as an unknown id.
     */
    get: operations["getProduct"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/categories": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List categories by position
     * @description Every category with `parentId` (build the tree from it) and `productCount`: the active products `GET /v1/products?categoryId=` lists for it, subcategories included.
     */
    get: operations["listCategories"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/store": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Store info: name, currency, locales, country, whether prices include tax
     * @description What a storefront needs to format prices and pick a language; the admin settings hold the rest.
     */
    get: operations["getStore"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/products": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List products of every status
     * @description The storefront list's filters plus `status`.
     */
    get: operations["adminListProducts"];
    put?: never;
    /**
     * Create a product with its variants
     * @description Prices are integer minor units. Without options a product has exactly one variant; with options each variant names one value of each, and no two share a combination. A variant's stock is tracked when `inventory.onHand` or `inventory.tracked` is given. Status defaults to active.
     */
    post: operations["adminCreateProduct"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/products/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a product of any status by id or slug
     * @description Drafts and archived products too, with each variant's inventory.
     */
    get: operations["adminGetProduct"];
    put?: never;
    post?: never;
    /**
     * Delete a product and its variants
     * @description Removes it from the catalog and search at once. Placed orders keep their own copy of its titles and prices.
     */
    delete: operations["adminDeleteProduct"];
    options?: never;
    head?: never;
    /**
     * Update a product
     * @description Any subset of the fields. A `variants` array replaces the list: entries with an `id` update that variant, entries without one are created, variants left out are deleted.
     */
    patch: operations["adminUpdateProduct"];
    trace?: never;
  };
  "/v1/admin/categories": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List categories by position
     * @description The same categories and counts as the storefront list (`productCount`: active products, subcategories included).
     */
    get: operations["adminListCategories"];
    put?: never;
    /**
     * Create a category
     * @description The slug is made from the default-locale name when absent. A parent must exist.
     */
    post: operations["adminCreateCategory"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/categories/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete a category without subcategories
     * @description A category with subcategories is a 409; its products simply lose it.
     */
    delete: operations["adminDeleteCategory"];
    options?: never;
    head?: never;
    /**
     * Update a category
     * @description A parent that would form a cycle is a 409.
     */
    patch: operations["adminUpdateCategory"];
    trace?: never;
  };
  "/v1/admin/store": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get the store settings
     * @description Every setting, including tax rates and the low-stock threshold, which the storefront's store info leaves out.
     */
    get: operations["adminGetStore"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Update the store settings
     * @description Tax rates are basis points (2300 = 23 %). `locales` always includes `defaultLocale`. `currency` is fixed once an order exists (409 `CONFLICT`).
     */
    patch: operations["adminUpdateStore"];
    trace?: never;
  };
  "/v1/admin/inventory/{variantId}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Set or adjust a variant's stock
     * @description `onHand` sets the count, `adjust` adds a signed delta (the result stays within 0..1000000000, else 422); `tracked` and `allowBackorder` set the flags. Untracked variants are always available.
     */
    patch: operations["adminUpdateInventory"];
    trace?: never;
  };
  "/v1/admin/products/export": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Export the catalog as a CSV file
     * @description Every product of every status, one row per variant with the product's columns repeated: slug, status, `name.<locale>` and `description.<locale>` per store locale, categories (slugs), tags and image URLs separated by `|`, taxRate, requiresShipping, `option1.name`/`option1.value` up to option3, sku, title, price and compareAtPrice as decimals in the store's currency (`49.00`), currency, tracked, onHand, allowBackorder. UTF-8 with a byte-order mark, so spreadsheets read accents. For people and spreadsheets: agents read products as JSON.
     */
    get: operations["adminExportProducts"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/products/import": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create or update products from a CSV file (all or nothing)
     * @description The export's columns, sent as a `text/csv` body or as `{"csv": "…"}`. Rows are grouped by slug into products; a row whose SKU exists updates that variant and its product, a slug no product has creates one. Each product is checked by the rules of create and update. A column the file lacks keeps what is stored. Any refused row imports nothing: a 422 whose `details` name each cell (`/body/csv/{row}/{column}`). `dryRun=true` writes nothing and reports what would happen, refused rows included. At most 5000 rows.
     */
    post: operations["adminImportProducts"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/media": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the shop's images
     * @description Newest first, without the bytes: each item's `url` serves the file (`GET /media/{id}`).
     */
    get: operations["adminListMedia"];
    put?: never;
    /**
     * Upload an image
     * @description Stores a JPEG, PNG, WebP, AVIF or GIF image (at most 5 MiB) in the shop's own database file and answers where it is served: its `url` (`/media/{id}`) may be given as a product image's `url`. What the file is comes from its bytes: a PNG sent as `image/jpeg` is stored as `image/png`; bytes that are none of the five types (SVG included) are a 422. Above the shop's media limit (`MEDIA_MAX_SHOP_BYTES`, 200 MiB by default) a 422 too. Not offered to agents: a tool call cannot carry a file.
     */
    post: operations["adminUploadMedia"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/media/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete an image no product shows
     * @description A 409 while a product's images still point at it (remove it from the product first). Deleting a product leaves its images in the shop's media.
     */
    delete: operations["adminDeleteMedia"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/media/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An image of the shop, as its bytes
     * @description On the shop's hosts anyone may read it (its Host names the shop); elsewhere, such as the platform host the dashboard runs on, a credential of the shop (API key, dashboard session) is needed. Another shop's id is a 404. Served with a strong `ETag` (the SHA-256 of the bytes) and `Cache-Control: public, max-age=31536000, immutable` (`private` when a credential chose the shop): the bytes under a URL never change.
     */
    get: operations["getMediaFile"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/countries": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Every country, for address forms
     * @description Names in the store's default locale or `?locale=`, whether a postal code is required, and `shipsTo` where an active shipping method serves the country.
     */
    get: operations["listCountries"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/carts": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a cart
     * @description Optionally with an email and items. A signed-in customer (customer session) owns the cart.
     */
    post: operations["createCart"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/carts/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a cart with items, fresh totals and messages
     * @description Prices, stock, the coupon and the shipping method are checked again on every read; `messages` say what changed (an item removed or unavailable, a new price, too little stock, a coupon or shipping method dropped).
     */
    get: operations["getCart"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/carts/{id}/items": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Add an item (the same variant merges)
     * @description `variantId`, or `productId` of a single-variant product; quantity 1–999. More than the stock available is a 409 INSUFFICIENT_STOCK, unless the variant is untracked or allows backorder. A new line beyond 100 lines, or a cart subtotal or total above 10^13 minor units, is a 422 UNPROCESSABLE.
     */
    post: operations["addCartItem"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/carts/{id}/items/{itemId}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove an item
     * @description Totals are computed again. A cart whose order was placed is a 409.
     */
    delete: operations["removeCartItem"];
    options?: never;
    head?: never;
    /**
     * Change an item's quantity (0 removes it)
     * @description A cart subtotal or total above 10^13 minor units is a 422 UNPROCESSABLE; nothing changes.
     */
    patch: operations["updateCartItem"];
    trace?: never;
  };
  "/v1/carts/{id}/coupon": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Apply a coupon code (case-insensitive)
     * @description 422 COUPON_INVALID with the reason: unknown, inactive, not started, expired, usage limit reached, minimum subtotal not met.
     */
    post: operations["applyCartCoupon"];
    /**
     * Remove the applied coupon
     * @description Totals are computed again without the discount. A cart whose order was placed is a 409.
     */
    delete: operations["removeCartCoupon"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/carts/{id}/shipping-methods": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Shipping methods for this cart, with their price for it
     * @description Active methods serving the shipping country (all active ones before an address is set).
     */
    get: operations["listCartShippingMethods"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/carts/{id}/shipping-method": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Choose the shipping method
     * @description 422 when the method does not serve the shipping address.
     */
    post: operations["setCartShippingMethod"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/carts/{id}/shipping-address": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Set the shipping address
     * @description The country must be one the store ships to; a chosen method that does not serve it is cleared with a message.
     */
    post: operations["setCartShippingAddress"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/carts/{id}/billing-address": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Set the billing address
     * @description Defaults to the shipping address at place-order when not set.
     */
    post: operations["setCartBillingAddress"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/coupons": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List coupons, newest first
     * @description `query` matches part of the code, case-insensitively.
     */
    get: operations["adminListCoupons"];
    put?: never;
    /**
     * Create a coupon
     * @description The code is stored upper-case and must be unique whatever its case (409). `value` is a whole percent 1–100 for `percentage`, minor units ≥ 1 for `fixed`, and absent or 0 for `free_shipping`. `minSubtotal` is in minor units; `endsAt` must be after `startsAt`. Active by default.
     */
    post: operations["adminCreateCoupon"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/coupons/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a coupon
     * @description With its rules, validity dates and how many times it was used.
     */
    get: operations["adminGetCoupon"];
    put?: never;
    post?: never;
    /**
     * Delete a coupon
     * @description Carts holding its code find it unknown from then on; placed orders keep their copy.
     */
    delete: operations["adminDeleteCoupon"];
    options?: never;
    head?: never;
    /**
     * Update a coupon
     * @description Any subset of the fields; `null` clears an optional one. Changing `type` to percentage or fixed needs a `value`. `usageCount` is read-only.
     */
    patch: operations["adminUpdateCoupon"];
    trace?: never;
  };
  "/v1/admin/shipping-methods": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List shipping methods by position
     * @description Every method, active or not, by position, then name in the default locale. Not paginated.
     */
    get: operations["adminListShippingMethods"];
    put?: never;
    /**
     * Create a shipping method
     * @description `price` and `freeOver` are minor units (shipping is free once the subtotal after discount reaches `freeOver`). `countries` lists ISO alpha-2 codes served (empty = every country). `minDays` ≤ `maxDays`, each 0–365. Active by default, position 0.
     */
    post: operations["adminCreateShippingMethod"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/shipping-methods/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a shipping method
     * @description With its price, the countries it serves and whether it is active.
     */
    get: operations["adminGetShippingMethod"];
    put?: never;
    post?: never;
    /**
     * Delete a shipping method
     * @description Carts that had chosen it lose it on their next read (message `SHIPPING_METHOD_CLEARED`) and must choose again; placed orders keep their copy.
     */
    delete: operations["adminDeleteShippingMethod"];
    options?: never;
    head?: never;
    /**
     * Update a shipping method
     * @description Any subset of the fields; `null` clears an optional one. `countries` replaces the list.
     */
    patch: operations["adminUpdateShippingMethod"];
    trace?: never;
  };
  "/v1/carts/{id}/place-order": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Place the order
     * @description Takes the stock, counts the coupon, creates or finds the customer by email, and returns the order with `accessToken` (lets a guest read it). 422 names what is missing; 409 INSUFFICIENT_STOCK when an item cannot be served, also when a concurrent buyer took the last units.
     */
    post: operations["placeOrder"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/orders": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The signed-in customer's orders, newest first
     * @description Needs a customer session (`customer_session` cookie or `x-customer-session` header); without one, 401. Each order is a summary; `GET /v1/orders/{id}` gives the full order.
     */
    get: operations["listOrders"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/orders/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an order
     * @description Readable by callers with admin scope, API keys and granted agents of the store, the customer session that owns the order, or anyone with `?token=<accessToken>` (returned when the order was placed) or the `?token=ol_…` of the order link its emails carry. Anyone else gets 404.
     */
    get: operations["getOrder"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/orders": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List orders, newest first
     * @description Filters: `status`, `paymentStatus`, `fulfillmentStatus`, `query` (order number, or part of the email or of the customer's name), `from` (inclusive) and `to` (exclusive) on the time the order was placed. Each order is a summary; `GET /v1/admin/orders/{id}` gives the full order.
     */
    get: operations["adminListOrders"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/orders/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an order with its lines, refunds, fulfillments and events
     * @description Any order of the store, including guest orders; the storefront's access rules do not apply to admin callers.
     */
    get: operations["adminGetOrder"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/orders/{id}/fulfill": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Fulfill an order (ship it)
     * @description Allowed on an open, unfulfilled order that is paid, or whose payment method is a manual one (cash on delivery, bank transfer). The order is completed when paid; otherwise it stays open until marked paid. Any other state is a 409 naming it.
     */
    post: operations["adminFulfillOrder"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/orders/{id}/refund": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Refund an order, in full or in part
     * @description Allowed when the payment is paid or partially refunded. `amount` defaults to what is left to refund and must be between 1 and that (else 422). `restock: true` gives the order's units back to stock, once per order. Orders paid by a manual method (and Ifthenpay payments, which the merchant refunds in Ifthenpay's back office) are refunded at once; Stripe and Easypay payments are refunded through the provider after the commit (the refund stays `pending` until the provider confirms it). Send an `Idempotency-Key` so a retry never refunds twice.
     */
    post: operations["adminRefundOrder"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/orders/{id}/cancel": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel an unpaid (or fully refunded), unfulfilled order
     * @description Allowed on an open, unfulfilled order whose payment was not received or was refunded in full. Gives its units back to stock (unless a refund already did) and its coupon use back to the coupon; it never refunds. A paid or partially refunded order is refunded instead (409).
     */
    post: operations["adminCancelOrder"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/orders/{id}/mark-paid": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Mark an order paid by a manual payment method
     * @description For bank transfers and cash on delivery: allowed on an open order whose manual payment is pending. An order already fulfilled is completed.
     */
    post: operations["adminMarkOrderPaid"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/dashboard/stats": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Dashboard statistics over a date range
     * @description `from`/`to` (ISO 8601, the range is [from, to)) default to the last 30 days; `to` must be after `from` and the range at most 366 days (else 400). Revenue is Σ(total − refunded) of orders placed in the range whose payment was taken; ordersCount counts those not cancelled; averageOrderValue = revenue ÷ paid orders (half away from zero). Stock, products, customersCount and the awaiting counts are the state now. salesByDay lists every UTC day of the range.
     */
    get: operations["adminDashboardStats"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/account/sign-up": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a storefront account and sign in
     * @description Sets the httpOnly `customer_session` cookie and returns the token. An email that already has an account is a 409. Orders placed as a guest with the same email are not attached to the account. Past `SIGNUP_RATE_LIMIT_PER_HOUR` sign-ups per client address, a 429 `RATE_LIMITED`.
     */
    post: operations["signUpCustomer"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/account/sign-in": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in to a storefront account
     * @description Sets the httpOnly `customer_session` cookie and returns the token. Wrong credentials are a 401 that never says whether the email exists. 429 `RATE_LIMITED` after 10 failures per client address and email in 15 minutes, or past `SIGNIN_RATE_LIMIT_PER_HOUR` attempts per address whatever the email.
     */
    post: operations["signInCustomer"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/account/sign-out": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * End the storefront session
     * @description Ends the session of the `customer_session` cookie or `x-customer-session` header; 401 without one.
     */
    post: operations["signOutCustomer"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/account": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The signed-in storefront customer
     * @description 401 without a customer session of this store.
     */
    get: operations["getAccount"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/account/password-reset": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Email a storefront account a link to set a new password
     * @description Always the same 202, whether or not the email has an account of this store, after the same work. For an account, the store emails a link valid 30 minutes (older unused links stop working): `resetUrl` with `?token=…` added, where `resetUrl` is the storefront's page that asks for the new password and must be an https URL on one of the store's `allowedOrigins` (else 422 `UNPROCESSABLE`; `http://localhost` is also accepted outside production). The page sends the token and the new password to `POST /v1/account/password-reset/confirm`. 429 `RATE_LIMITED` past 5 requests an hour per email or 20 per client address.
     */
    post: operations["requestCustomerPasswordReset"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/account/password-reset/confirm": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Set a new storefront password with a reset link's token
     * @description Sets the password (the rules of sign-up), uses the token and ends every session of the account; the shopper then signs in with the new password. A token that is unknown, used, replaced by a newer one, expired or another store's is one answer: 400 `TOKEN_INVALID`.
     */
    post: operations["confirmCustomerPasswordReset"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/customers": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List customers, newest first
     * @description `query` matches part of the email, first, last or full name. `ordersCount` and `lastOrderAt` count orders that are not cancelled; `totalSpent` is Σ(total − refunded) over orders whose payment was taken.
     */
    get: operations["adminListCustomers"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/customers/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a customer with its recent orders
     * @description With its order count, total spent and its 10 most recent orders.
     */
    get: operations["adminGetCustomer"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/integrations": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Payment provider settings, one entry per provider
     * @description Every provider (stripe, ifthenpay, easypay), configured or not. Secrets show only whether they are set and their last four characters.
     */
    get: operations["adminListIntegrations"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/integrations/{provider}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One payment provider's settings, with the webhook URL to paste into its dashboard
     * @description `source` says which credentials apply: the store's own (`tenant`), the operator's (`environment`) or none.
     */
    get: operations["adminGetIntegration"];
    /**
     * Set a payment provider's settings (201 when created, 200 when replaced)
     * @description Secret fields are stored encrypted and never returned. A secret given a string is set, `null` clears it, omitting it keeps it; non-secret fields are replaced as given. Unknown fields, invalid values and Stripe keys of different modes (test/live) are a 400 and nothing is stored. New credentials are checked with the provider before anything is stored (Stripe: a `secretKey` sent; Easypay: an `accountId` sent, with its API key): a refusal is a 422 UNPROCESSABLE naming the provider, details at the fields; a provider that cannot be reached is a 503 UPSTREAM_UNAVAILABLE with Retry-After. Ifthenpay keys are not checked (no call of Ifthenpay's checks a key without starting a payment). Once a store has settings for a provider, only they are used for it (delete them to go back to the operator's).
     */
    put: operations["adminPutIntegration"];
    post?: never;
    /**
     * Delete a payment provider's settings (the operator's credentials apply again)
     * @description The store's own credentials for this provider are deleted; payments then use the operator's credentials, if any. Owners and admins only when called from the dashboard; 404 when none were set.
     */
    delete: operations["adminDeleteIntegration"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/carts/{id}/payment-methods": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Payment methods offered for this cart
     * @description Card (Stripe), then MB WAY and Multibanco (EUR carts only; Ifthenpay or Easypay), then the store's manual methods. `requires: ["phone"]`: place-order needs a phone number. A cart total of 0 offers none.
     */
    get: operations["listCartPaymentMethods"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/orders/{id}/payment": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Try the order's payment again
     * @description Same access as reading the order. When the provider could not be reached at place-order (`payment.status` `created` without `action`, with `error` and `retry` naming this operation), asks it again; otherwise starts a new payment with the order's method (a new card session, reference or MB WAY request). The body is optional: `returnUrl` is where a card payment sends the shopper back, under place-order's rule (one of the shop's hosts or an origin of its `allowedOrigins`, else a 422 at `/body/returnUrl`); without it, the order's page on the shop's platform host. Answers the order. 409 when the order is not open, is already paid or processing, or is paid by a manual method.
     */
    post: operations["retryOrderPayment"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/orders/{id}/payment/confirm": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirm a card payment when the shopper comes back from Stripe
     * @description Same access as reading the order. Reads the Checkout Session back from Stripe and applies what it says (paid, or processing for an asynchronous method) exactly as the webhook would, once: a later `checkout.session.completed` changes nothing more. Answers the order. 503 UPSTREAM_UNAVAILABLE when Stripe cannot be reached (the webhook still completes the order).
     */
    post: operations["confirmOrderPayment"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/webhooks/payments/{provider}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness check, or an Ifthenpay callback forwarded by the ingress
     * @description Without callback parameters: the same readiness answer for any `org`, no secret needed. With Ifthenpay's `key`: a callback, handled as the POST is (shared secret, `org`, proof). Providers retry anything but a 200: a verified notification is answered 200 whatever it meant (`applied`, `duplicate`, `ignored`, `stale`, `flagged`).
     */
    get: operations["paymentWebhookGet"];
    put?: never;
    /**
     * Process a payment notification forwarded by the ingress
     * @description Called by the ingress (or a forwarder holding `CHECKOUT_API_SECRET`), never by providers. Exactly one `org`. The provider's proof is verified again before anything changes. Proofs: Stripe's `stripe-signature` over the exact bytes (5 minutes' tolerance), Ifthenpay's `key`, Easypay's Basic password when a `webhookSecret` is set (and Easypay's API is always asked). Providers retry anything but a 200: a verified notification is answered 200 whatever it meant (`applied`, `duplicate`, `ignored`, `stale`, `flagged`). 503 `WEBHOOKS_DISABLED` while `CHECKOUT_API_SECRET` is unset.
     */
    post: operations["paymentWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/webhooks/{provider}/{org}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness check, or an Ifthenpay callback
     * @description Without callback parameters: the same readiness answer for any organization. With Ifthenpay's `key`: its callback, handled as the POST is. Providers retry anything but a 200: a verified notification is answered 200 whatever it meant (`applied`, `duplicate`, `ignored`, `stale`, `flagged`).
     */
    get: operations["paymentWebhookIngressGet"];
    put?: never;
    /**
     * Receive a payment provider's notification (the URL merchants paste into the provider)
     * @description Served at `CHECKOUT_URL` (shown as `webhookUrl` in the store's integration settings). Past `WEBHOOK_RATE_LIMIT_PER_MIN` notifications per provider and organization, a 429. The proof is verified with the credentials that apply to the organization. Proofs: Stripe's `stripe-signature` over the exact bytes (5 minutes' tolerance), Ifthenpay's `key`, Easypay's Basic password when a `webhookSecret` is set (and Easypay's API is always asked). Handled here when this process serves the API, else forwarded with the exact bytes to `/v1/webhooks/payments/{provider}` and its answer relayed. Providers retry anything but a 200: a verified notification is answered 200 whatever it meant (`applied`, `duplicate`, `ignored`, `stale`, `flagged`).
     */
    post: operations["paymentWebhookIngress"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/email-previews/{template}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Preview an email
     * @description Renders one of the emails the service sends with sample data, in `locale` (default: the store's default language; English where a language has no strings). Nothing is sent.
     */
    get: operations["adminPreviewEmail"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/events": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the shop's events
     * @description Newest first, kept 30 days. Each is what a webhook delivers: `{id, type, createdAt, data: {object}}`.
     */
    get: operations["adminListEvents"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/events/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an event
     * @description One event of the shop, as a webhook delivers it; another shop's event is a 404.
     */
    get: operations["adminGetEvent"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/webhook-endpoints": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the webhook endpoints
     * @description Newest first, without their secrets.
     */
    get: operations["adminListWebhookEndpoints"];
    put?: never;
    /**
     * Add a webhook endpoint
     * @description The shop's events of the chosen types are POSTed to `url`, signed (Standard Webhooks). The answer holds the signing `secret` (`whsec_…`), shown this once only. The URL must be `https://` and reach only public addresses (a 422 on `/body/url` names the rule). At most 20 endpoints per shop (422).
     */
    post: operations["adminCreateWebhookEndpoint"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/webhook-endpoints/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a webhook endpoint
     * @description Without its secret, which is never readable after it was shown.
     */
    get: operations["adminGetWebhookEndpoint"];
    put?: never;
    post?: never;
    /**
     * Delete a webhook endpoint
     * @description With its deliveries: attempts still scheduled for it are not made.
     */
    delete: operations["adminDeleteWebhookEndpoint"];
    options?: never;
    head?: never;
    /**
     * Update a webhook endpoint
     * @description Any subset of `url`, `events`, `description` (`null` clears it) and `enabled`. A new URL is checked as on creation. `enabled: false` stops its deliveries; `enabled: true` on a disabled endpoint clears why it was disabled and its failure streak. Deliveries it gave up on are not sent again by re-enabling: retry them.
     */
    patch: operations["adminUpdateWebhookEndpoint"];
    trace?: never;
  };
  "/v1/admin/webhook-endpoints/{id}/rotate-secret": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replace an endpoint's signing secret
     * @description Answers the new `secret`, shown this once only. For 24 hours (`previousSecretExpiresAt`) deliveries are signed with both the new and the previous secret, so the receiver can switch at any moment meanwhile.
     */
    post: operations["adminRotateWebhookSecret"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/webhook-endpoints/{id}/ping": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a test message to an endpoint
     * @description Sends `{"type": "ping", "createdAt", "data": {"object": {"id", "url"}}}` now, signed as every delivery, and answers what the receiver did. Sent once, also to a disabled endpoint, and not kept as a delivery.
     */
    post: operations["adminPingWebhookEndpoint"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/webhook-endpoints/{id}/deliveries": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List an endpoint's deliveries
     * @description Newest first: each event sent to the endpoint, its attempts, the last answer (status, error, duration) and when it is tried next.
     */
    get: operations["adminListWebhookDeliveries"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/webhook-endpoints/{id}/deliveries/{deliveryId}/retry": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Attempt a delivery again now
     * @description Attempts the delivery before answering (same message, same `webhook-id`) and answers it afterwards. A failed attempt goes on with the retry schedule from its number of attempts. A disabled endpoint is a 409: enable it first.
     */
    post: operations["adminRetryWebhookDelivery"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/readiness": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * What still blocks selling
     * @description Lists every reason the store cannot take an order yet: `NO_PRODUCT` (no active product with a variant in stock, untracked or open to backorder), `NO_SHIPPING_METHOD` (no active method serves the store's country, unless every product is digital), `NO_PAYMENT_METHOD` (no manual method and no provider integration), `NO_DOMAIN` (no domain, and the platform subdomain is only local). `ready` is true when the list is empty. `warnings` name what does not block selling but is missing (`EMAIL_NOT_CONFIGURED`: the service sends no email). The CLI prints the same lists: `commerce readiness <org>`.
     */
    get: operations["adminGetReadiness"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/agents": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The organization's agents, by host
     * @description Every agent registered for the organization (any status), grouped by the host that registered it, each with its capability grants. An organization has few, so the list is not paged.
     */
    get: operations["adminListAgents"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/agents/{id}/revoke": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Revoke an agent; its next call is refused
     * @description The agent and its grants are revoked at once, and its pending approval expires; revoking a revoked agent answers it unchanged. An agent that is not this organization's is a 404. From the dashboard, owners and admins only.
     */
    post: operations["adminRevokeAgent"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/checkout-sessions": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Open a checkout session
     * @description A new cart with the lines, plus the buyer and the choices given. The answer says whether it is `ready` to complete, or `open` with the `problems` to fix, and the shipping and payment methods to choose from.
     */
    post: operations["openCheckoutSession"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/checkout-sessions/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a checkout session
     * @description Fresh status, totals and problems. Another caller's session is a 404.
     */
    get: operations["getCheckoutSession"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Change a checkout session
     * @description Applies the parts given; `lines` replace all lines. A completed, canceled or expired session is a 409.
     */
    patch: operations["updateCheckoutSession"];
    trace?: never;
  };
  "/v1/checkout-sessions/{id}/cancel": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a checkout session
     * @description Its cart stays unused; canceling a canceled session answers it again. A completed one is a 409.
     */
    post: operations["cancelCheckoutSession"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/checkout-sessions/{id}/complete": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Complete a checkout session: place its order
     * @description Place-order with the session's payment method and phone; its refusals otherwise (422 naming what is missing, 409 INSUFFICIENT_STOCK), nothing changed. The answer holds the order and its `accessToken`. With `paymentCredential` (a Stripe Shared Payment Token) the card is charged at once: the order answers paid, or its payment `action` is the bank's 3-D Secure page, or, declined, the order is cancelled and its stock released.
     */
    post: operations["completeCheckoutSession"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/checkout-sessions/of-order": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The checkout session that placed an order
     * @description The caller's completed session whose `order` is `orderId`; any other order is a 404.
     */
    get: operations["getCheckoutSessionOfOrder"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/acp-platforms": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the ACP platforms
     * @description The agent platforms that may check out on the shop's host through ACP, newest first.
     */
    get: operations["adminListAcpPlatforms"];
    put?: never;
    /**
     * Let an agent platform check out through ACP
     * @description Answers the platform's bearer `token` and the `signingSecret` of its order webhooks, shown this once only: give both to the platform. The webhook URL is checked as a webhook endpoint's. At most 20.
     */
    post: operations["adminCreateAcpPlatform"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/admin/acp-platforms/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Stop an ACP platform
     * @description Its next call is refused. Orders it placed stay the shop's; no further webhooks are sent to it.
     */
    delete: operations["adminDeleteAcpPlatform"];
    options?: never;
    head?: never;
    /**
     * Rename an ACP platform or change its webhook URL
     * @description `webhookUrl: null` stops its order webhooks.
     */
    patch: operations["adminUpdateAcpPlatform"];
    trace?: never;
  };
  "/v1/admin/acp-platforms/{id}/rotate-token": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replace an ACP platform's bearer token
     * @description Answers the new `token`, shown this once only; the previous one is refused from now on.
     */
    post: operations["adminRotateAcpPlatformToken"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  "order.placed": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * An order was placed
     * @description Sent to each enabled endpoint whose `events` hold this type or `*`, signed as Standard Webhooks says, retried for about 3.5 days until a 2xx (docs/webhooks.md).
     */
    post: operations["orderPlacedWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "order.paid": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * An order's payment was received
     * @description Sent to each enabled endpoint whose `events` hold this type or `*`, signed as Standard Webhooks says, retried for about 3.5 days until a 2xx (docs/webhooks.md).
     */
    post: operations["orderPaidWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "order.payment_failed": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * An order's payment failed (the shopper may try again)
     * @description Sent to each enabled endpoint whose `events` hold this type or `*`, signed as Standard Webhooks says, retried for about 3.5 days until a 2xx (docs/webhooks.md).
     */
    post: operations["orderPaymentFailedWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "order.cancelled": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * An order was cancelled
     * @description Sent to each enabled endpoint whose `events` hold this type or `*`, signed as Standard Webhooks says, retried for about 3.5 days until a 2xx (docs/webhooks.md).
     */
    post: operations["orderCancelledWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "order.fulfilled": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * An order was fulfilled
     * @description Sent to each enabled endpoint whose `events` hold this type or `*`, signed as Standard Webhooks says, retried for about 3.5 days until a 2xx (docs/webhooks.md).
     */
    post: operations["orderFulfilledWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "order.refunded": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Part or all of an order's payment was refunded
     * @description Sent to each enabled endpoint whose `events` hold this type or `*`, signed as Standard Webhooks says, retried for about 3.5 days until a 2xx (docs/webhooks.md).
     */
    post: operations["orderRefundedWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "product.created": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A product was created
     * @description Sent to each enabled endpoint whose `events` hold this type or `*`, signed as Standard Webhooks says, retried for about 3.5 days until a 2xx (docs/webhooks.md).
     */
    post: operations["productCreatedWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "product.updated": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A product was changed
     * @description Sent to each enabled endpoint whose `events` hold this type or `*`, signed as Standard Webhooks says, retried for about 3.5 days until a 2xx (docs/webhooks.md).
     */
    post: operations["productUpdatedWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "product.deleted": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A product was deleted (the product as it was)
     * @description Sent to each enabled endpoint whose `events` hold this type or `*`, signed as Standard Webhooks says, retried for about 3.5 days until a 2xx (docs/webhooks.md).
     */
    post: operations["productDeletedWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "inventory.low_stock": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A variant's stock fell to the low-stock threshold
     * @description Sent to each enabled endpoint whose `events` hold this type or `*`, signed as Standard Webhooks says, retried for about 3.5 days until a 2xx (docs/webhooks.md).
     */
    post: operations["inventoryLowStockWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "customer.created": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A customer record was created
     * @description Sent to each enabled endpoint whose `events` hold this type or `*`, signed as Standard Webhooks says, retried for about 3.5 days until a 2xx (docs/webhooks.md).
     */
    post: operations["customerCreatedWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "webhook_endpoint.disabled": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The service gave up on one of the shop's webhook endpoints
     * @description Sent to each enabled endpoint whose `events` hold this type or `*`, signed as Standard Webhooks says, retried for about 3.5 days until a 2xx (docs/webhooks.md).
     */
    post: operations["webhookEndpointDisabledWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    Caller: {
      orgId: string;
      scopes: ("storefront" | "admin")[];
      type: "agent" | "api-key" | "session" | "host";
      /** @description Only for session and agent callers */
      userId?: string;
    };
    User: {
      id: string;
      email: string;
      name: string | null;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
    };
    Session: {
      id: string;
      activeOrganizationId: string | null;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      expiresAt: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
    };
    Organization: {
      id: string;
      slug: string;
      name: string;
      role: "owner" | "admin" | "member";
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
    };
    ApiKey: {
      id: string;
      name: string;
      /** @description First characters of the key, to tell keys apart */
      start: string;
      metadata: {
        organizationId: string;
        scopes: ("storefront" | "admin")[];
      };
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
      expiresAt: string | null;
      revokedAt: string | null;
    };
    PageMeta: {
      page: number;
      limit: number;
      total: number;
    };
    InvitationPreview: {
      organizationName: string;
      /** @description Whom the invitation is for */
      email: string;
      role: "owner" | "admin" | "member";
      /** @description The email has a dashboard account already: sign in to accept, rather than choose a password */
      hasAccount: boolean;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      expiresAt: string;
    };
    Domain: {
      /** @description Lower-case, without a trailing dot */
      host: string;
      /** @description The host answers for the organization. Every host added is verified: there is no ownership check by DNS yet */
      verified: boolean;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
    };
    Member: {
      userId: string;
      email: string;
      name: string | null;
      role: "owner" | "admin" | "member";
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
    };
    Invitation: {
      id: string;
      email: string;
      role: "owner" | "admin" | "member";
      /** @description The inviter's email; null when an API key invited, or the inviter's account is gone */
      invitedBy: string | null;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      expiresAt: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
    };
    StorefrontProduct: {
      id: string;
      slug: string;
      status: "draft" | "active" | "archived";
      name: components["schemas"]["LocalizedText"];
      description: components["schemas"]["LocalizedText"] | null;
      categoryIds: string[];
      tags: string[];
      images: {
        url: string;
        alt?: string;
      }[];
      options: {
        name: string;
        values: string[];
      }[];
      variants: components["schemas"]["StorefrontVariant"][];
      priceRange: {
        min: components["schemas"]["Money"];
        max: components["schemas"]["Money"];
      };
      /** @description Some variant is available */
      inStock: boolean;
      /** @description In stock, and every available variant is low on stock */
      lowStock: boolean;
      taxRate: number | null;
      requiresShipping: boolean;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updatedAt: string;
    };
    /**
     * @description Text per locale (BCP 47 keys); the store's default locale is required
     * @example {
     *       "en": "Linen shirt",
     *       "pt": "Camisa de linho"
     *     }
     */
    LocalizedText: {
      [key: string]: string;
    };
    StorefrontVariant: {
      id: string;
      sku: string | null;
      title: string;
      options: {
        [key: string]: string;
      };
      price: components["schemas"]["Money"];
      compareAtPrice: components["schemas"]["Money"] | null;
      /** @description Can be bought now: untracked, backorder allowed or in stock */
      available: boolean;
      /** @description Few units left: stock is tracked without backorder and at most the store's `lowStockThreshold` units remain (sold out is `available: false`) */
      lowStock: boolean;
    };
    Money: {
      /** @description Integer minor units (cents) */
      amount: number;
      /** @description ISO 4217 */
      currency: string;
    };
    SearchPageMeta: {
      page: number;
      limit: number;
      /** @description Exact, except when `totalIsEstimate` is true */
      total: number;
      /**
       * @description Present only on a search (`query`) with more matches than are counted exactly: `total` is then that cap (1000), not the number of matches; the pages go on past it
       * @constant
       */
      totalIsEstimate?: true;
    };
    Category: {
      id: string;
      slug: string;
      name: components["schemas"]["LocalizedText"];
      description: components["schemas"]["LocalizedText"] | null;
      parentId: string | null;
      position: number;
      /** @description Active products in this category or its subcategories, each once: the `total` of GET /v1/products?categoryId= */
      productCount: number;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updatedAt: string;
    };
    Store: {
      name: string;
      currency: string;
      defaultLocale: string;
      locales: string[];
      country: string;
      pricesIncludeTax: boolean;
      policyLinks: components["schemas"]["PolicyLinks"];
    };
    /** @description The shop's policy pages, which agent platforms (UCP, ACP) show buyers; null: none */
    PolicyLinks: {
      /** @description The shop's terms and conditions */
      terms: string | null;
      /** @description The shop's privacy policy */
      privacy: string | null;
      /** @description The shop's returns and refunds policy */
      returns: string | null;
      /** @description The shop's shipping information */
      shipping: string | null;
      /** @description The shop's frequently asked questions */
      faq: string | null;
      /** @description The shop's contact page */
      contact: string | null;
    };
    Product: {
      id: string;
      slug: string;
      status: "draft" | "active" | "archived";
      name: components["schemas"]["LocalizedText"];
      description: components["schemas"]["LocalizedText"] | null;
      categoryIds: string[];
      tags: string[];
      images: {
        url: string;
        alt?: string;
      }[];
      options: {
        name: string;
        values: string[];
      }[];
      variants: components["schemas"]["Variant"][];
      priceRange: {
        min: components["schemas"]["Money"];
        max: components["schemas"]["Money"];
      };
      /** @description Some variant is available */
      inStock: boolean;
      /** @description In stock, and every available variant is low on stock */
      lowStock: boolean;
      taxRate: number | null;
      requiresShipping: boolean;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updatedAt: string;
    };
    Variant: {
      id: string;
      sku: string | null;
      title: string;
      options: {
        [key: string]: string;
      };
      price: components["schemas"]["Money"];
      compareAtPrice: components["schemas"]["Money"] | null;
      /** @description Can be bought now: untracked, backorder allowed or in stock */
      available: boolean;
      /** @description Few units left: stock is tracked without backorder and at most the store's `lowStockThreshold` units remain (sold out is `available: false`) */
      lowStock: boolean;
      inventory: components["schemas"]["Inventory"];
    };
    Inventory: {
      tracked: boolean;
      onHand: number;
      allowBackorder: boolean;
    };
    StoreSettings: components["schemas"]["Store"] & {
      taxRates: {
        country: string;
        rate: number;
      }[];
      contactEmail: string | null;
      lowStockThreshold: number;
      manualPaymentMethods: string[];
      /** @description Browser origins allowed to call the storefront operations (CORS) */
      allowedOrigins: string[];
      /** @description The name the shop's emails are sent under; null: the store's name */
      emailSenderName: string | null;
      /** @description Where replies to the shop's emails go; null: the contact email */
      emailReplyTo: string | null;
      /** @description The storefront's order page: emails link to it with `?order=<id>&token=<link token>` (readable by `GET /v1/orders/{id}?token=`); null: emails carry no order link */
      orderPageUrl: string | null;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updatedAt: string;
    };
    InventoryLevel: {
      variantId: string;
      productId: string;
      sku: string | null;
      tracked: boolean;
      onHand: number;
      allowBackorder: boolean;
    };
    CatalogImportReport: {
      dryRun: boolean;
      /** @description Rows read, blank ones left out */
      rows: number;
      /** @description Products created (in a dry run: that would be) */
      created: number;
      /** @description Products changed (in a dry run: that would be) */
      updated: number;
      /** @description Products the file names as they already are */
      unchanged: number;
      /** @description Refused rows (a dry run only: an import with any answers 422 and writes nothing) */
      errors: {
        /** @description The row as a spreadsheet numbers it: the header is row 1 */
        row: number;
        /** @description The column at fault, when it is one cell */
        column?: string;
        message: string;
      }[];
    };
    Media: {
      /** @description Id (`med_…`) */
      id: string;
      /** @description Where the file is served, relative to the shop's hosts (`/media/{id}`); usable as a product image `url` */
      url: string;
      /** @description What the bytes are, read from the bytes (not from the type the upload declared) */
      contentType: "image/jpeg" | "image/png" | "image/webp" | "image/avif" | "image/gif";
      /** @description Size of the file in bytes */
      bytes: number;
      /** @description In pixels, when the image's headers tell it */
      width?: number;
      /** @description In pixels, when the image's headers tell it */
      height?: number;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
    };
    Country: {
      code: string;
      name: string;
      postalCodeRequired: boolean;
      /** @description Some active shipping method serves it */
      shipsTo: boolean;
    };
    Cart: {
      id: string;
      status: "active" | "completed";
      currency: string;
      email: string | null;
      customerId: string | null;
      items: components["schemas"]["CartItem"][];
      /** @description Sum of quantities */
      itemCount: number;
      coupon: {
        code: string;
        type: string;
        value: number;
      } | null;
      shippingAddress: components["schemas"]["Address"] | null;
      billingAddress: components["schemas"]["Address"] | null;
      shippingMethod: {
        id: string;
        name: components["schemas"]["LocalizedText"];
        price: components["schemas"]["Money"];
      } | null;
      totals: components["schemas"]["CartTotals"];
      pricesIncludeTax: boolean;
      messages: {
        code: string;
        message: string;
        itemId?: string;
      }[];
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updatedAt: string;
    };
    CartItem: {
      id: string;
      productId: string;
      variantId: string;
      productName: components["schemas"]["LocalizedText"];
      variantTitle: string;
      sku: string | null;
      image: {
        url: string;
        alt?: string;
      } | null;
      unitPrice: components["schemas"]["Money"];
      quantity: number;
      subtotal: components["schemas"]["Money"];
      discount: components["schemas"]["Money"];
      total: components["schemas"]["Money"];
    };
    Address: {
      firstName: string;
      lastName: string;
      company?: string;
      line1: string;
      line2?: string;
      city: string;
      postalCode?: string;
      region?: string;
      /** @description ISO 3166-1 alpha-2 */
      country: string;
      phone?: string;
    };
    CartTotals: {
      subtotal: components["schemas"]["Money"];
      discount: components["schemas"]["Money"];
      shipping: components["schemas"]["Money"];
      tax: components["schemas"]["Money"];
      total: components["schemas"]["Money"];
    };
    CartShippingMethod: {
      id: string;
      name: components["schemas"]["LocalizedText"];
      description: components["schemas"]["LocalizedText"] | null;
      price: components["schemas"]["Money"];
      minDays: number | null;
      maxDays: number | null;
    };
    Coupon: {
      id: string;
      /** @description Upper-case; matched case-insensitively */
      code: string;
      /** @description percentage (value = percent 1–100), fixed (value = minor units), free_shipping (no value) */
      type: "percentage" | "fixed" | "free_shipping";
      /** @description Percent (1–100) for percentage, minor units of the store currency for fixed, 0 for free_shipping */
      value: number;
      minSubtotal: components["schemas"]["Money"] | null;
      startsAt: string | null;
      endsAt: string | null;
      usageLimit: number | null;
      /** @description Orders placed with it (read-only) */
      usageCount: number;
      active: boolean;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updatedAt: string;
    };
    ShippingMethod: {
      id: string;
      name: components["schemas"]["LocalizedText"];
      description: components["schemas"]["LocalizedText"] | null;
      price: components["schemas"]["Money"];
      freeOver: components["schemas"]["Money"] | null;
      /** @description ISO 3166-1 alpha-2; empty = every country */
      countries: string[];
      minDays: number | null;
      maxDays: number | null;
      active: boolean;
      position: number;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updatedAt: string;
    };
    Order: {
      id: string;
      /** @description Per-store sequence from 1001 */
      number: number;
      status: "open" | "completed" | "cancelled";
      paymentStatus:
        | "pending"
        | "processing"
        | "paid"
        | "partially_refunded"
        | "refunded"
        | "failed"
        | "expired";
      fulfillmentStatus: "unfulfilled" | "fulfilled";
      email: string;
      customerId: string;
      currency: string;
      items: {
        productId: string;
        variantId: string;
        productName: components["schemas"]["LocalizedText"];
        variantTitle: string;
        sku: string | null;
        unitPrice: components["schemas"]["Money"];
        quantity: number;
        subtotal: components["schemas"]["Money"];
        discount: components["schemas"]["Money"];
        /** @description Basis points */
        taxRate: number;
        tax: components["schemas"]["Money"];
        total: components["schemas"]["Money"];
      }[];
      shippingAddress: components["schemas"]["Address"] | null;
      billingAddress: components["schemas"]["Address"] | null;
      shippingMethod: {
        id: string;
        name: components["schemas"]["LocalizedText"];
        price: components["schemas"]["Money"];
      } | null;
      coupon: {
        code: string;
        type: string;
        value: number;
      } | null;
      paymentMethod: {
        id: string;
        provider: string;
        type: string;
      } | null;
      totals: components["schemas"]["OrderTotals"];
      /** @description The latest payment attempt and what the shopper must do next (`action`). When the provider call failed, `status` stays `created`, there is no `action`, and `error` and `retry` (POST /v1/orders/{id}/payment) say so */
      payment: components["schemas"]["OrderPayment"] | null;
      /** @description Every payment attempt, oldest first */
      payments: components["schemas"]["OrderPayment"][];
      /** @description amount_mismatch, duplicate_payment, paid_after_cancel, reopened_after_payment, refund_required, chargeback */
      paymentFlags: string[];
      refunds: {
        id: string;
        amount: components["schemas"]["Money"];
        reason: string | null;
        status: string;
        /**
         * Format: date-time
         * @description ISO 8601 UTC
         */
        createdAt: string;
      }[];
      fulfillments: {
        id: string;
        carrier: string | null;
        trackingNumber: string | null;
        trackingUrl: string | null;
        /**
         * Format: date-time
         * @description ISO 8601 UTC
         */
        createdAt: string;
      }[];
      events: {
        type: string;
        message: string;
        /**
         * Format: date-time
         * @description ISO 8601 UTC
         */
        createdAt: string;
      }[];
      note: string | null;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      placedAt: string;
      paidAt: string | null;
      cancelledAt: string | null;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updatedAt: string;
    };
    OrderTotals: {
      subtotal: components["schemas"]["Money"];
      discount: components["schemas"]["Money"];
      shipping: components["schemas"]["Money"];
      tax: components["schemas"]["Money"];
      total: components["schemas"]["Money"];
      refunded: components["schemas"]["Money"];
    };
    OrderPayment: {
      attemptId: string;
      provider: string;
      /** @description card, mbway, multibanco */
      method: string;
      /** @description created, processing, authorized, succeeded, failed, expired, mismatch */
      status: string;
      /** @description Minor units, in the order's currency */
      amount: number;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      expiresAt?: string;
      action?:
        | {
            /** @constant */
            type: "redirect";
            /** @description The provider's payment page */
            url: string;
          }
        | {
            /** @constant */
            type: "reference";
            entity: string;
            reference: string;
            /** @description Minor units */
            amount: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC
             */
            expiresAt: string;
          }
        | {
            /** @constant */
            type: "push";
            /** @description Approve the payment in the MB WAY app of this phone */
            phone: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC
             */
            expiresAt: string;
          }
        | {
            /** @constant */
            type: "offline";
            instructions: components["schemas"]["LocalizedText"];
          };
      /** @description Present when the provider was asked for this payment and did not open it (it could not be reached or refused): nothing was charged and there is no `action`; `retry` says how to ask again. Both are withdrawn once the order can no longer be paid (cancelled, or paid another way) */
      error?: string;
      /** @description The operation that asks the provider again; present with `error` */
      retry?: {
        /** @constant */
        operationId: "retryOrderPayment";
        /** @constant */
        method: "POST";
        /** @description `/v1/orders/{id}/payment` (a guest adds `?token=<accessToken>`) */
        path: string;
      };
    };
    OrderSummary: {
      id: string;
      /** @description Per-store sequence from 1001 */
      number: number;
      status: "open" | "completed" | "cancelled";
      paymentStatus:
        | "pending"
        | "processing"
        | "paid"
        | "partially_refunded"
        | "refunded"
        | "failed"
        | "expired";
      fulfillmentStatus: "unfulfilled" | "fulfilled";
      email: string;
      customerId: string;
      totals: components["schemas"]["OrderTotals"];
      /** @description Units ordered (the sum of the lines' quantities) */
      itemCount: number;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      placedAt: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updatedAt: string;
    };
    DashboardStats: {
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      from: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      to: string;
      revenue: components["schemas"]["Money"];
      ordersCount: number;
      averageOrderValue: components["schemas"]["Money"];
      customersCount: number;
      newCustomersCount: number;
      productsCount: number;
      lowStockVariants: number;
      ordersAwaitingPayment: number;
      ordersAwaitingFulfillment: number;
      topProducts: {
        productId: string;
        name: components["schemas"]["LocalizedText"];
        quantity: number;
        revenue: components["schemas"]["Money"];
      }[];
      salesByDay: {
        /** @description YYYY-MM-DD (UTC) */
        date: string;
        orders: number;
        revenue: components["schemas"]["Money"];
      }[];
    };
    Account: {
      id: string;
      email: string;
      firstName: string | null;
      lastName: string | null;
      /** @constant */
      hasAccount: true;
    };
    Customer: {
      id: string;
      email: string;
      firstName: string | null;
      lastName: string | null;
      phone: string | null;
      hasAccount: boolean;
      /** @description Orders that are not cancelled */
      ordersCount: number;
      totalSpent: components["schemas"]["Money"];
      lastOrderAt: string | null;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
    };
    Integration: {
      provider: string;
      source: "tenant" | "environment" | "none";
      enabled: boolean;
      settings: {
        [key: string]: string | number;
      };
      secrets: {
        [key: string]:
          | {
              /** @constant */
              set: true;
              last4: string | null;
            }
          | {
              /** @constant */
              set: false;
            };
      };
      /** @description Paste this into the provider's dashboard */
      webhookUrl: string;
      updatedAt: string | null;
    };
    PaymentMethod: {
      id: string;
      type: string;
      provider: string;
      flow: string;
      name: components["schemas"]["LocalizedText"];
      requires: string[];
    };
    PaymentWebhookAnswer:
      | {
          /** @constant */
          received: true;
          /** @description `applied`; `duplicate` (seen before: nothing done again); `ignored` (about nothing of this store's); `stale` (out of date); `flagged` (needs the merchant: see the order's paymentFlags) */
          outcome: "applied" | "ignored" | "stale" | "flagged" | "duplicate";
        }
      | {
          provider: string;
          /** @constant */
          ready: true;
        };
    EmailPreview: {
      template: string;
      /** @description The language the email was written in (English when the asked one has no strings) */
      locale: string;
      subject: string;
      /** @description The HTML part, every value escaped */
      html: string;
      /** @description The plain-text part */
      text: string;
    };
    Event: {
      /** @description Id (`evt_…`) */
      id: string;
      /** @description What happened (docs/events.md lists each type with its object) */
      type:
        | "order.placed"
        | "order.paid"
        | "order.payment_failed"
        | "order.cancelled"
        | "order.fulfilled"
        | "order.refunded"
        | "product.created"
        | "product.updated"
        | "product.deleted"
        | "inventory.low_stock"
        | "customer.created"
        | "webhook_endpoint.disabled";
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
      data: {
        /** @description The resource as the admin API renders it when the event happened (an order, a product, …) */
        object: unknown;
      };
    };
    WebhookEndpointWithSecret: {
      /** @description Id (`we_…`) */
      id: string;
      url: string;
      events: (
        | "order.placed"
        | "order.paid"
        | "order.payment_failed"
        | "order.cancelled"
        | "order.fulfilled"
        | "order.refunded"
        | "product.created"
        | "product.updated"
        | "product.deleted"
        | "inventory.low_stock"
        | "customer.created"
        | "webhook_endpoint.disabled"
        | "*"
      )[];
      description: string | null;
      enabled: boolean;
      disabledReason: string | null;
      failingSince: string | null;
      previousSecretExpiresAt: string | null;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updatedAt: string;
      /** @description The signing secret: shown in this answer only, never readable again */
      secret: string;
    };
    WebhookEndpoint: {
      /** @description Id (`we_…`) */
      id: string;
      url: string;
      events: (
        | "order.placed"
        | "order.paid"
        | "order.payment_failed"
        | "order.cancelled"
        | "order.fulfilled"
        | "order.refunded"
        | "product.created"
        | "product.updated"
        | "product.deleted"
        | "inventory.low_stock"
        | "customer.created"
        | "webhook_endpoint.disabled"
        | "*"
      )[];
      description: string | null;
      enabled: boolean;
      disabledReason: string | null;
      failingSince: string | null;
      previousSecretExpiresAt: string | null;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updatedAt: string;
    };
    WebhookPingResult: {
      /** @description The receiver answered 2xx */
      succeeded: boolean;
      /** @description The `webhook-id` the ping was sent with */
      messageId: string;
      statusCode: number | null;
      error: string | null;
      durationMs: number;
    };
    WebhookDelivery: {
      /** @description Id (`whd_…`) */
      id: string;
      /** @description Id (`we_…`) */
      endpointId: string;
      /** @description Id (`evt_…`) */
      eventId: string;
      /** @description The event's type (docs/events.md) */
      eventType: string;
      /** @description The `webhook-id` header: the same on every attempt */
      messageId: string;
      status: "pending" | "succeeded" | "failed";
      attempts: number;
      lastStatusCode: number | null;
      lastError: string | null;
      lastDurationMs: number | null;
      nextAttemptAt: string | null;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updatedAt: string;
    };
    Readiness: {
      /** @description True when nothing blocks the first order */
      ready: boolean;
      blockers: {
        /** @description Stable code of what blocks selling */
        code: "NO_PRODUCT" | "NO_SHIPPING_METHOD" | "NO_PAYMENT_METHOD" | "NO_DOMAIN";
        message: string;
        /** @description The endpoint or CLI command that removes it */
        fix: string;
      }[];
      /** @description Not blockers: `ready` does not depend on them */
      warnings: {
        /**
         * @description Stable code of what does not block selling but is missing
         * @constant
         */
        code: "EMAIL_NOT_CONFIGURED";
        message: string;
        /** @description What sets it */
        fix: string;
      }[];
    };
    AgentHost: {
      id: string;
      name: string;
      status: "pending" | "active" | "revoked";
      /** @description `ed25519`: a program with Agent Auth keys; `oauth`: an app a merchant connected with OAuth (named after the app) */
      credential: "ed25519" | "oauth";
      /** @description The host's agents in this organization, newest first */
      agents: components["schemas"]["Agent"][];
    };
    Agent: {
      id: string;
      name: string;
      mode: "delegated" | "autonomous";
      status: "pending" | "active" | "rejected" | "revoked";
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
      lastUsedAt: string | null;
      grants: components["schemas"]["AgentGrant"][];
    };
    AgentGrant: {
      /** @description The operation id the grant allows */
      capability: string;
      description: string;
      status: "pending" | "active" | "denied" | "revoked";
      expiresAt: string | null;
    };
    CheckoutSession: {
      id: string;
      /** @description `ready`: completing it places the order now; `open`: `problems` says what is missing */
      status: "open" | "ready" | "completed" | "canceled" | "expired";
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      expiresAt: string;
      cart: components["schemas"]["Cart"];
      buyer: {
        email: string | null;
        firstName: string | null;
        lastName: string | null;
        phone: string | null;
      };
      paymentMethodId: string | null;
      problems: {
        /** @description What place-order would answer (`UNPROCESSABLE`, `COUPON_INVALID`, …) */
        code: string;
        /** @description The part of the session to change */
        field:
          | "lines"
          | "coupon"
          | "buyer.email"
          | "buyer.phone"
          | "shippingAddress"
          | "shippingMethod"
          | "paymentMethod"
          | "totals"
          | "session";
        message: string;
      }[];
      /** @description Those serving the cart's address */
      shippingMethods: components["schemas"]["CartShippingMethod"][];
      /** @description Those offered for the cart's total */
      paymentMethods: components["schemas"]["PaymentMethod"][];
      order: components["schemas"]["Order"] | null;
    };
    AcpPlatform: {
      /** @description Id (`acpp_…`) */
      id: string;
      name: string;
      /** @description The bearer token's last four characters */
      tokenHint: string;
      webhookUrl: string | null;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updatedAt: string;
    };
    AcpPlatformWithSecrets: {
      /** @description Id (`acpp_…`) */
      id: string;
      name: string;
      /** @description The bearer token's last four characters */
      tokenHint: string;
      webhookUrl: string | null;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updatedAt: string;
      /** @description The platform's bearer token (`Authorization: Bearer acp_…` on the shop's ACP endpoints): shown in this answer only, never readable again */
      token: string;
      /** @description The `Merchant-Signature` HMAC-SHA256 key the platform verifies order webhooks with: shown in this answer only */
      signingSecret: string;
    };
    AcpPlatformWithToken: {
      /** @description Id (`acpp_…`) */
      id: string;
      name: string;
      /** @description The bearer token's last four characters */
      tokenHint: string;
      webhookUrl: string | null;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updatedAt: string;
      /** @description The platform's bearer token (`Authorization: Bearer acp_…` on the shop's ACP endpoints): shown in this answer only, never readable again */
      token: string;
    };
    Error: {
      /** @description Human-readable message */
      error: string;
      /** @description Machine code, e.g. VALIDATION_ERROR */
      code: string;
      /** @description Same as the HTTP status */
      status: number;
      /** @description Where the input was wrong (validation) or which rule refused it */
      details?: {
        path: string;
        message: string;
      }[];
    };
  };
  responses: {
    /** @description Internal error, never caused by the input: report it with the `x-request-id` (`INTERNAL`). */
    Internal: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "INTERNAL";
        };
      };
    };
    /** @description Temporarily unavailable (`UNAVAILABLE`). */
    Unavailable: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        "retry-after": components["headers"]["RetryAfter"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "UNAVAILABLE";
        };
      };
    };
    /** @description No valid credential (`UNAUTHORIZED`). */
    Unauthorized: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "UNAUTHORIZED";
        };
      };
    };
    /** @description The caller lacks the required scope (`FORBIDDEN`). */
    Forbidden: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "FORBIDDEN";
        };
      };
    };
    /** @description Too many requests: wait for `Retry-After` seconds (`RATE_LIMITED`). */
    RateLimited: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        "retry-after": components["headers"]["RetryAfter"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "RATE_LIMITED";
        };
      };
    };
    /** @description Malformed input (`VALIDATION_ERROR`). */
    ValidationError: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "VALIDATION_ERROR";
        };
      };
    };
    /** @description The caller lacks the required scope (`SIGNUP_DISABLED`). */
    SignupDisabled: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "SIGNUP_DISABLED";
        };
      };
    };
    /** @description Conflict with the current state (`CONFLICT`). */
    Conflict: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "CONFLICT";
        };
      };
    };
    /** @description Request body too large (`PAYLOAD_TOO_LARGE`). */
    PayloadTooLarge: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "PAYLOAD_TOO_LARGE";
        };
      };
    };
    /** @description Not found, also for another tenant's ids (`NOT_FOUND`). */
    NotFound: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "NOT_FOUND";
        };
      };
    };
    /** @description A business rule refuses the request (`UNPROCESSABLE`). */
    Unprocessable: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "UNPROCESSABLE";
        };
      };
    };
    /** @description Malformed input (`TOKEN_INVALID`, `VALIDATION_ERROR`). */
    TokenInvalidOrValidationError: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "TOKEN_INVALID" | "VALIDATION_ERROR";
        };
      };
    };
    /** @description Conflict with the current state (`CONFLICT`, `IDEMPOTENCY_CONFLICT`). */
    ConflictOrIdempotencyConflict: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "CONFLICT" | "IDEMPOTENCY_CONFLICT";
        };
      };
    };
    /** @description Conflict with the current state (`IDEMPOTENCY_CONFLICT`). */
    IdempotencyConflict: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "IDEMPOTENCY_CONFLICT";
        };
      };
    };
    /** @description Conflict with the current state (`IDEMPOTENCY_CONFLICT`, `INSUFFICIENT_STOCK`). */
    IdempotencyConflictOrInsufficientStock: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "IDEMPOTENCY_CONFLICT" | "INSUFFICIENT_STOCK";
        };
      };
    };
    /** @description Conflict with the current state (`CONFLICT`, `IDEMPOTENCY_CONFLICT`, `INSUFFICIENT_STOCK`). */
    ConflictOrIdempotencyConflictOrInsufficientStock: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "CONFLICT" | "IDEMPOTENCY_CONFLICT" | "INSUFFICIENT_STOCK";
        };
      };
    };
    /** @description A business rule refuses the request (`COUPON_INVALID`). */
    CouponInvalid: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "COUPON_INVALID";
        };
      };
    };
    /** @description A business rule refuses the request (`COUPON_INVALID`, `UNPROCESSABLE`). */
    CouponInvalidOrUnprocessable: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "COUPON_INVALID" | "UNPROCESSABLE";
        };
      };
    };
    /** @description Temporarily unavailable (`UNAVAILABLE`, `UPSTREAM_UNAVAILABLE`). */
    UnavailableOrUpstreamUnavailable: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        "retry-after": components["headers"]["RetryAfter"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "UNAVAILABLE" | "UPSTREAM_UNAVAILABLE";
        };
      };
    };
    /** @description No valid credential (`UNAUTHORIZED`, `WEBHOOK_SIGNATURE_INVALID`). */
    UnauthorizedOrWebhookSignatureInvalid: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "UNAUTHORIZED" | "WEBHOOK_SIGNATURE_INVALID";
        };
      };
    };
    /** @description Temporarily unavailable (`PROVIDER_NOT_CONFIGURED`, `UNAVAILABLE`, `UPSTREAM_UNAVAILABLE`, `WEBHOOKS_DISABLED`). */
    ProviderNotConfiguredOrUnavailableOrUpstreamUnavailableOrWebhooksDisabled: {
      headers: {
        "x-request-id": components["headers"]["RequestId"];
        "retry-after": components["headers"]["RetryAfter"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] & {
          /** @enum {string} */
          code: "PROVIDER_NOT_CONFIGURED" | "UNAVAILABLE" | "UPSTREAM_UNAVAILABLE" | "WEBHOOKS_DISABLED";
        };
      };
    };
  };
  parameters: {
    /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
    IdempotencyKey: string;
    /** @description Page number, from 1. Out of range is a 400, never clamped. */
    Page: number;
    /** @description Items per page, 1 to 100. Out of range is a 400, never clamped. */
    Limit: number;
    /** @description An `ETag` of an earlier answer: a 304 with no body while it is still current. */
    IfNoneMatch: string;
  };
  requestBodies: never;
  headers: {
    /** @description The request's id, also in the service's log line: the client's own `x-request-id` when it sent a valid one (1–128 of `A-Z a-z 0-9 . _ : -`), else a new UUID. Quote it when reporting a problem. */
    RequestId: string;
    /** @description `true` when this is the stored answer to an earlier request with the same `Idempotency-Key` (nothing was done again); absent otherwise. */
    IdempotentReplayed: "true";
    /** @description Seconds to wait before trying again. */
    RetryAfter: number;
    /** @description Strong validator of this body (each content coding has its own); send it in `If-None-Match` to get a 304 while the data has not changed. */
    ETag: string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              status: "ok" | "degraded";
              reasons?: {
                /** @description `LOW_DISK_SPACE`: the data directory has less free space than `MIN_FREE_DISK_MB`; `STORAGE_FAILING`: writes fail (disk full, I/O error, database busy) since `since`, until one succeeds */
                code: "LOW_DISK_SPACE" | "STORAGE_FAILING";
                message: string;
                /**
                 * Format: date-time
                 * @description ISO 8601 UTC
                 */
                since: string;
              }[];
            };
          };
        };
      };
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  getMe: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Caller"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  signUpEmail: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** Format: email */
          email: string;
          /** @description At least 8 characters */
          password: string;
          name?: string;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              user: components["schemas"]["User"];
              session: components["schemas"]["Session"];
            };
          };
        };
      };
      400: components["responses"]["ValidationError"];
      403: components["responses"]["SignupDisabled"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  signInEmail: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** Format: email */
          email: string;
          password: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              user: components["schemas"]["User"];
              session: components["schemas"]["Session"];
            };
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  signOut: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              success: boolean;
            };
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  getSession: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              user: components["schemas"]["User"];
              session: components["schemas"]["Session"];
            };
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  createOrganization: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name: string;
          slug?: string;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Organization"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  listOrganizations: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Organization"][];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  setActiveOrganization: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Id (`org_…`) */
          organizationId: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              user: components["schemas"]["User"];
              session: components["schemas"]["Session"];
            };
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  createApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name: string;
          /**
           * @default [
           *       "storefront"
           *     ]
           */
          scopes?: ("storefront" | "admin")[];
          /** @description Id (`org_…`) */
          organizationId?: string;
          /** @description Seconds */
          expiresIn?: number;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ApiKey"] & {
              /** @description The key itself; shown only in this response */
              key: string;
            };
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  listApiKeys: {
    parameters: {
      query?: {
        /** @description Id (`org_…`) */
        organizationId?: string;
        /** @description Page number, from 1. Out of range is a 400, never clamped. */
        page?: components["parameters"]["Page"];
        /** @description Items per page, 1 to 100. Out of range is a 400, never clamped. */
        limit?: components["parameters"]["Limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ApiKey"][];
            meta: components["schemas"]["PageMeta"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      404: components["responses"]["NotFound"];
      422: components["responses"]["Unprocessable"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  revokeApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Id (`key_…`) */
          keyId: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ApiKey"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  requestPasswordReset: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** Format: email */
          email: string;
        };
      };
    };
    responses: {
      /** @description Success */
      202: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              /**
               * @description Always true: a link was sent if the email has an account, and the answer never says which
               * @constant
               */
              accepted: true;
            };
          };
        };
      };
      400: components["responses"]["ValidationError"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  confirmPasswordReset: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description The `token` of the link the email carried */
          token: string;
          /** @description At least 8 characters */
          password: string;
        };
      };
    };
    responses: {
      /** @description Done */
      204: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["TokenInvalidOrValidationError"];
      413: components["responses"]["PayloadTooLarge"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  lookupInvitation: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description The `token` of the link the email carried */
          token: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["InvitationPreview"];
          };
        };
      };
      400: components["responses"]["TokenInvalidOrValidationError"];
      413: components["responses"]["PayloadTooLarge"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  acceptInvitation: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description The `token` of the link the email carried */
          token: string;
          /** @description At least 8 characters */
          password?: string;
          name?: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              user: components["schemas"]["User"];
              session: components["schemas"]["Session"];
            };
          };
        };
      };
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              user: components["schemas"]["User"];
              session: components["schemas"]["Session"];
            };
          };
        };
      };
      400: components["responses"]["TokenInvalidOrValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListDomains: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Domain"][];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminAddDomain: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "host": "shop.example.com"
         *     }
         */
        "application/json": {
          /** @description A host name such as `shop.example.com`; stored lower-case, without a trailing dot */
          host: string;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Domain"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminRemoveDomain: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description A host name such as `shop.example.com`; stored lower-case, without a trailing dot */
        host: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done */
      204: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListMembers: {
    parameters: {
      query?: {
        /** @description Page number, from 1. Out of range is a 400, never clamped. */
        page?: components["parameters"]["Page"];
        /** @description Items per page, 1 to 100. Out of range is a 400, never clamped. */
        limit?: components["parameters"]["Limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Member"][];
            meta: components["schemas"]["PageMeta"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListInvitations: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Invitation"][];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminInviteMember: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "email": "ana@example.com",
         *       "role": "admin"
         *     }
         */
        "application/json": {
          /** Format: email */
          email: string;
          /** @description An admin may give `admin` or `member`; only an owner gives `owner` */
          role: "owner" | "admin" | "member";
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Invitation"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminRevokeInvitation: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`inv_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done */
      204: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminRemoveMember: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`usr_…`) */
        userId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done */
      204: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminUpdateMember: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`usr_…`) */
        userId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          role: "owner" | "admin" | "member";
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Member"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  listProducts: {
    parameters: {
      query?: {
        /** @description Full-text search, prefix matching */
        query?: string;
        /** @description Id (`cat_…`) */
        categoryId?: string;
        /** @description Sort field */
        sort?: "price" | "name" | "createdAt";
        /** @description Default asc, desc for createdAt */
        order?: "asc" | "desc";
        /** @description Page number, from 1. Out of range is a 400, never clamped. */
        page?: components["parameters"]["Page"];
        /** @description Items per page, 1 to 100. Out of range is a 400, never clamped. */
        limit?: components["parameters"]["Limit"];
      };
      header?: {
        /** @description An `ETag` of an earlier answer: a 304 with no body while it is still current. */
        "If-None-Match"?: components["parameters"]["IfNoneMatch"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          etag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "prod_0VbsQ4jiETTgI3pgLfV8yjuj",
           *           "slug": "linen-shirt",
           *           "status": "active",
           *           "name": {
           *             "en": "Linen shirt",
           *             "pt": "Camisa de linho"
           *           },
           *           "description": {
           *             "en": "Washed linen, relaxed fit."
           *           },
           *           "categoryIds": [],
           *           "tags": [],
           *           "images": [],
           *           "options": [],
           *           "variants": [
           *             {
           *               "id": "var_0VbsQ4jjVDb4LNNmYP9hh0ec",
           *               "sku": "LIN-SHIRT-M",
           *               "title": "Default",
           *               "options": {},
           *               "price": {
           *                 "amount": 4500,
           *                 "currency": "EUR"
           *               },
           *               "compareAtPrice": null,
           *               "available": true,
           *               "lowStock": false
           *             }
           *           ],
           *           "priceRange": {
           *             "min": {
           *               "amount": 4500,
           *               "currency": "EUR"
           *             },
           *             "max": {
           *               "amount": 4500,
           *               "currency": "EUR"
           *             }
           *           },
           *           "inStock": true,
           *           "lowStock": false,
           *           "taxRate": null,
           *           "requiresShipping": true,
           *           "createdAt": "2026-11-24T08:19:14.771Z",
           *           "updatedAt": "2026-11-24T08:19:14.771Z"
           *         }
           *       ],
           *       "meta": {
           *         "page": 1,
           *         "limit": 20,
           *         "total": 1
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["StorefrontProduct"][];
            meta: components["schemas"]["SearchPageMeta"];
          };
        };
      };
      /** @description Not modified: the `ETag` sent in `If-None-Match` is still current. */
      304: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          etag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  getProduct: {
    parameters: {
      query?: never;
      header?: {
        /** @description An `ETag` of an earlier answer: a 304 with no body while it is still current. */
        "If-None-Match"?: components["parameters"]["IfNoneMatch"];
      };
      path: {
        /** @description Product id or slug */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          etag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "prod_0VbsQ4jiETTgI3pgLfV8yjuj",
           *         "slug": "linen-shirt",
           *         "status": "active",
           *         "name": {
           *           "en": "Linen shirt",
           *           "pt": "Camisa de linho"
           *         },
           *         "description": {
           *           "en": "Washed linen, relaxed fit."
           *         },
           *         "categoryIds": [],
           *         "tags": [],
           *         "images": [],
           *         "options": [],
           *         "variants": [
           *           {
           *             "id": "var_0VbsQ4jjVDb4LNNmYP9hh0ec",
           *             "sku": "LIN-SHIRT-M",
           *             "title": "Default",
           *             "options": {},
           *             "price": {
           *               "amount": 4500,
           *               "currency": "EUR"
           *             },
           *             "compareAtPrice": null,
           *             "available": true,
           *             "lowStock": false
           *           }
           *         ],
           *         "priceRange": {
           *           "min": {
           *             "amount": 4500,
           *             "currency": "EUR"
           *           },
           *           "max": {
           *             "amount": 4500,
           *             "currency": "EUR"
           *           }
           *         },
           *         "inStock": true,
           *         "lowStock": false,
           *         "taxRate": null,
           *         "requiresShipping": true,
           *         "createdAt": "2026-11-24T08:19:14.771Z",
           *         "updatedAt": "2026-11-24T08:19:14.771Z"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["StorefrontProduct"];
          };
        };
      };
      /** @description Not modified: the `ETag` sent in `If-None-Match` is still current. */
      304: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          etag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  listCategories: {
    parameters: {
      query?: never;
      header?: {
        /** @description An `ETag` of an earlier answer: a 304 with no body while it is still current. */
        "If-None-Match"?: components["parameters"]["IfNoneMatch"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          etag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Category"][];
          };
        };
      };
      /** @description Not modified: the `ETag` sent in `If-None-Match` is still current. */
      304: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          etag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  getStore: {
    parameters: {
      query?: never;
      header?: {
        /** @description An `ETag` of an earlier answer: a 304 with no body while it is still current. */
        "If-None-Match"?: components["parameters"]["IfNoneMatch"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          etag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Store"];
          };
        };
      };
      /** @description Not modified: the `ETag` sent in `If-None-Match` is still current. */
      304: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          etag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListProducts: {
    parameters: {
      query?: {
        /** @description Full-text search, prefix matching */
        query?: string;
        /** @description Id (`cat_…`) */
        categoryId?: string;
        /** @description Sort field */
        sort?: "price" | "name" | "createdAt";
        /** @description Default asc, desc for createdAt */
        order?: "asc" | "desc";
        /** @description Page number, from 1. Out of range is a 400, never clamped. */
        page?: components["parameters"]["Page"];
        /** @description Items per page, 1 to 100. Out of range is a 400, never clamped. */
        limit?: components["parameters"]["Limit"];
        status?: "draft" | "active" | "archived";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Product"][];
            meta: components["schemas"]["SearchPageMeta"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminCreateProduct: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /**
           * @description Text per locale; the store's default locale is required
           * @example {
           *       "en": "Linen shirt",
           *       "pt": "Camisa de linho"
           *     }
           */
          name: {
            [key: string]: string;
          };
          slug?: string;
          status?: "draft" | "active" | "archived";
          description?: {
            [key: string]: string;
          } | null;
          categoryIds?: string[];
          tags?: string[];
          images?: {
            /** @description An `https://` (or `http://`) URL, or the `url` of the shop's media: `/media/{id}` */
            url: string;
            alt?: string;
          }[];
          options?: {
            name: string;
            values: string[];
          }[];
          taxRate?: number | null;
          requiresShipping?: boolean;
          variants: {
            /** @description Id (`var_…`) */
            id?: string;
            sku?: string | null;
            title?: string;
            options?: {
              [key: string]: string;
            };
            /** @description Price in minor units */
            price: number;
            compareAtPrice?: number | null;
            inventory?: {
              tracked?: boolean;
              onHand?: number;
              allowBackorder?: boolean;
            };
          }[];
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Product"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminGetProduct: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Product id or slug */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Product"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminDeleteProduct: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`prod_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done */
      204: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminUpdateProduct: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`prod_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          /**
           * @description Text per locale; the store's default locale is required
           * @example {
           *       "en": "Linen shirt",
           *       "pt": "Camisa de linho"
           *     }
           */
          name?: {
            [key: string]: string;
          };
          slug?: string;
          status?: "draft" | "active" | "archived";
          description?: {
            [key: string]: string;
          } | null;
          categoryIds?: string[];
          tags?: string[];
          images?: {
            /** @description An `https://` (or `http://`) URL, or the `url` of the shop's media: `/media/{id}` */
            url: string;
            alt?: string;
          }[];
          options?: {
            name: string;
            values: string[];
          }[];
          taxRate?: number | null;
          requiresShipping?: boolean;
          variants?: {
            /** @description Id (`var_…`) */
            id?: string;
            sku?: string | null;
            title?: string;
            options?: {
              [key: string]: string;
            };
            /** @description Price in minor units */
            price: number;
            compareAtPrice?: number | null;
            inventory?: {
              tracked?: boolean;
              onHand?: number;
              allowBackorder?: boolean;
            };
          }[];
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Product"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListCategories: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Category"][];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminCreateCategory: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /**
           * @description Text per locale; the store's default locale is required
           * @example {
           *       "en": "Linen shirt",
           *       "pt": "Camisa de linho"
           *     }
           */
          name: {
            [key: string]: string;
          };
          slug?: string;
          description?: {
            [key: string]: string;
          } | null;
          parentId?: string | null;
          position?: number;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Category"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminDeleteCategory: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`cat_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done */
      204: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminUpdateCategory: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`cat_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          /**
           * @description Text per locale; the store's default locale is required
           * @example {
           *       "en": "Linen shirt",
           *       "pt": "Camisa de linho"
           *     }
           */
          name?: {
            [key: string]: string;
          };
          slug?: string;
          description?: {
            [key: string]: string;
          } | null;
          parentId?: string | null;
          position?: number;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Category"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminGetStore: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["StoreSettings"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminUpdateStore: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          name?: string;
          currency?: string;
          defaultLocale?: string;
          locales?: string[];
          /** @description ISO 3166-1 alpha-2 */
          country?: string;
          pricesIncludeTax?: boolean;
          taxRates?: {
            /** @description ISO 3166-1 alpha-2 */
            country: string;
            /** @description Basis points */
            rate: number;
          }[];
          contactEmail?: string | null;
          lowStockThreshold?: number;
          manualPaymentMethods?: ("bank_transfer" | "cash_on_delivery")[];
          emailSenderName?: string | null;
          emailReplyTo?: string | null;
          orderPageUrl?: string | null;
          /** @description Policy pages to set (an https address) or remove (null); pages left out keep theirs */
          policyLinks?: {
            terms?: string | null;
            privacy?: string | null;
            returns?: string | null;
            shipping?: string | null;
            faq?: string | null;
            contact?: string | null;
          };
          /** @description Browser origins (e.g. `https://shop.example`) whose pages may call the storefront operations; `http://localhost[:port]` is allowed for development */
          allowedOrigins?: string[];
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["StoreSettings"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminUpdateInventory: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`var_…`) */
        variantId: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          /** @description Set the count */
          onHand?: number;
          /** @description Add (or remove) units; the result stays within 0..1000000000 */
          adjust?: number;
          tracked?: boolean;
          allowBackorder?: boolean;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["InventoryLevel"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminExportProducts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example slug,status,name.en,name.pt,description.en,description.pt,categories,tags,images,taxRate,requiresShipping,option1.name,option1.value,option2.name,option2.value,option3.name,option3.value,sku,title,price,compareAtPrice,currency,tracked,onHand,allowBackorder
           *     linen-shirt,active,Linen shirt,Camisa de linho,"Washed linen, relaxed fit.","Linho lavado, corte solto.",shirts,linen|summer,https://cdn.example/linen-shirt.jpg,,true,Size,S,,,,,LIN-S,S,45.00,59.00,EUR,true,12,false
           *     linen-shirt,active,Linen shirt,Camisa de linho,"Washed linen, relaxed fit.","Linho lavado, corte solto.",shirts,linen|summer,https://cdn.example/linen-shirt.jpg,,true,Size,M,,,,,LIN-M,M,45.00,,EUR,true,0,true
           */
          "text/csv": string;
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminImportProducts: {
    parameters: {
      query?: {
        /** @description Check every row and report what would change, writing nothing */
        dryRun?: boolean;
      };
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "text/csv": string;
        "application/json": {
          /** @description The CSV file as text, with the columns the export writes */
          csv: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["CatalogImportReport"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["IdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListMedia: {
    parameters: {
      query?: {
        /** @description Page number, from 1. Out of range is a 400, never clamped. */
        page?: components["parameters"]["Page"];
        /** @description Items per page, 1 to 100. Out of range is a 400, never clamped. */
        limit?: components["parameters"]["Limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "med_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *           "url": "/media/med_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *           "contentType": "image/png",
           *           "bytes": 48213,
           *           "width": 800,
           *           "height": 800,
           *           "createdAt": "2026-05-01T10:00:00.000Z"
           *         }
           *       ],
           *       "meta": {
           *         "page": 1,
           *         "limit": 20,
           *         "total": 1
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["Media"][];
            meta: components["schemas"]["PageMeta"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminUploadMedia: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    /** @description The image as the whole body with its `Content-Type` (`image/png`, …), or as the one field `file` of a `multipart/form-data` form. Larger than 5 MiB is a 413. */
    requestBody: {
      content: {
        "image/*": unknown;
        "multipart/form-data": {
          file: string;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "med_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *         "url": "/media/med_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *         "contentType": "image/png",
           *         "bytes": 48213,
           *         "width": 800,
           *         "height": 800,
           *         "createdAt": "2026-05-01T10:00:00.000Z"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["Media"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["IdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminDeleteMedia: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`med_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done */
      204: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  getMediaFile: {
    parameters: {
      query?: never;
      header?: {
        /** @description An `ETag` of an earlier answer: a 304 with no body while it is still current. */
        "If-None-Match"?: components["parameters"]["IfNoneMatch"];
      };
      path: {
        /** @description Id (`med_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          etag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "image/jpeg": unknown;
          "image/png": unknown;
          "image/webp": unknown;
          "image/avif": unknown;
          "image/gif": unknown;
        };
      };
      /** @description Not modified: the `ETag` sent in `If-None-Match` is still current. */
      304: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          etag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  listCountries: {
    parameters: {
      query?: {
        locale?: string;
      };
      header?: {
        /** @description An `ETag` of an earlier answer: a 304 with no body while it is still current. */
        "If-None-Match"?: components["parameters"]["IfNoneMatch"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          etag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Country"][];
          };
        };
      };
      /** @description Not modified: the `ETag` sent in `If-None-Match` is still current. */
      304: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          etag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  createCart: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        /**
         * @example {
         *       "email": "ana@example.com"
         *     }
         */
        "application/json": {
          /** Format: email */
          email?: string;
          items?: {
            /** @description Id (`var_…`) */
            variantId?: string;
            /** @description Id (`prod_…`) */
            productId?: string;
            quantity: number;
          }[];
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "cart_0VbsQ4kCZakLMA6qr0VeAzPf",
           *         "status": "active",
           *         "currency": "EUR",
           *         "email": "ana@example.com",
           *         "customerId": null,
           *         "items": [],
           *         "itemCount": 0,
           *         "coupon": null,
           *         "shippingAddress": null,
           *         "billingAddress": null,
           *         "shippingMethod": null,
           *         "totals": {
           *           "subtotal": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           },
           *           "discount": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           },
           *           "shipping": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           },
           *           "tax": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           },
           *           "total": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           }
           *         },
           *         "pricesIncludeTax": true,
           *         "messages": [],
           *         "createdAt": "2026-11-24T08:19:14.801Z",
           *         "updatedAt": "2026-11-24T08:19:14.801Z"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["Cart"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflictOrInsufficientStock"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  getCart: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id (`cart_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "cart_0VbsQ4kCZakLMA6qr0VeAzPf",
           *         "status": "active",
           *         "currency": "EUR",
           *         "email": "ana@example.com",
           *         "customerId": null,
           *         "items": [
           *           {
           *             "id": "item_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *             "productId": "prod_0VbsQ4jiETTgI3pgLfV8yjuj",
           *             "variantId": "var_0VbsQ4jjVDb4LNNmYP9hh0ec",
           *             "productName": {
           *               "en": "Linen shirt",
           *               "pt": "Camisa de linho"
           *             },
           *             "variantTitle": "Default",
           *             "sku": "LIN-SHIRT-M",
           *             "image": null,
           *             "unitPrice": {
           *               "amount": 4500,
           *               "currency": "EUR"
           *             },
           *             "quantity": 2,
           *             "subtotal": {
           *               "amount": 9000,
           *               "currency": "EUR"
           *             },
           *             "discount": {
           *               "amount": 0,
           *               "currency": "EUR"
           *             },
           *             "total": {
           *               "amount": 9000,
           *               "currency": "EUR"
           *             }
           *           }
           *         ],
           *         "itemCount": 2,
           *         "coupon": null,
           *         "shippingAddress": {
           *           "firstName": "Ana",
           *           "lastName": "Silva",
           *           "line1": "Rua Augusta 10",
           *           "city": "Lisboa",
           *           "country": "PT",
           *           "postalCode": "1100-053"
           *         },
           *         "billingAddress": null,
           *         "shippingMethod": {
           *           "id": "shp_0VbsQ4jWFrb8RKDbEf9Szr9e",
           *           "name": {
           *             "en": "Portugal"
           *           },
           *           "price": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           }
           *         },
           *         "totals": {
           *           "subtotal": {
           *             "amount": 9000,
           *             "currency": "EUR"
           *           },
           *           "discount": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           },
           *           "shipping": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           },
           *           "tax": {
           *             "amount": 1683,
           *             "currency": "EUR"
           *           },
           *           "total": {
           *             "amount": 9000,
           *             "currency": "EUR"
           *           }
           *         },
           *         "pricesIncludeTax": true,
           *         "messages": [],
           *         "createdAt": "2026-11-24T08:19:14.801Z",
           *         "updatedAt": "2026-11-24T08:19:14.809Z"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["Cart"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  addCartItem: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`cart_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "variantId": "var_0VbsQ4jjVDb4LNNmYP9hh0ec",
         *       "quantity": 2
         *     }
         */
        "application/json": {
          /** @description Id (`var_…`) */
          variantId?: string;
          /** @description Id (`prod_…`) */
          productId?: string;
          quantity: number;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "cart_0VbsQ4kCZakLMA6qr0VeAzPf",
           *         "status": "active",
           *         "currency": "EUR",
           *         "email": "ana@example.com",
           *         "customerId": null,
           *         "items": [
           *           {
           *             "id": "item_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *             "productId": "prod_0VbsQ4jiETTgI3pgLfV8yjuj",
           *             "variantId": "var_0VbsQ4jjVDb4LNNmYP9hh0ec",
           *             "productName": {
           *               "en": "Linen shirt",
           *               "pt": "Camisa de linho"
           *             },
           *             "variantTitle": "Default",
           *             "sku": "LIN-SHIRT-M",
           *             "image": null,
           *             "unitPrice": {
           *               "amount": 4500,
           *               "currency": "EUR"
           *             },
           *             "quantity": 2,
           *             "subtotal": {
           *               "amount": 9000,
           *               "currency": "EUR"
           *             },
           *             "discount": {
           *               "amount": 0,
           *               "currency": "EUR"
           *             },
           *             "total": {
           *               "amount": 9000,
           *               "currency": "EUR"
           *             }
           *           }
           *         ],
           *         "itemCount": 2,
           *         "coupon": null,
           *         "shippingAddress": null,
           *         "billingAddress": null,
           *         "shippingMethod": null,
           *         "totals": {
           *           "subtotal": {
           *             "amount": 9000,
           *             "currency": "EUR"
           *           },
           *           "discount": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           },
           *           "shipping": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           },
           *           "tax": {
           *             "amount": 1683,
           *             "currency": "EUR"
           *           },
           *           "total": {
           *             "amount": 9000,
           *             "currency": "EUR"
           *           }
           *         },
           *         "pricesIncludeTax": true,
           *         "messages": [],
           *         "createdAt": "2026-11-24T08:19:14.801Z",
           *         "updatedAt": "2026-11-24T08:19:14.805Z"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["Cart"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflictOrInsufficientStock"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  removeCartItem: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`cart_…`) */
        id: string;
        /** @description Id (`item_…`) */
        itemId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Cart"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  updateCartItem: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`cart_…`) */
        id: string;
        /** @description Id (`item_…`) */
        itemId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description 0 removes */
          quantity: number;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Cart"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflictOrInsufficientStock"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  applyCartCoupon: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`cart_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          code: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Cart"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["CouponInvalid"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  removeCartCoupon: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`cart_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Cart"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  listCartShippingMethods: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id (`cart_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["CartShippingMethod"][];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  setCartShippingMethod: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`cart_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Id (`shp_…`) */
          shippingMethodId: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Cart"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  setCartShippingAddress: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`cart_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["Address"];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Cart"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  setCartBillingAddress: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`cart_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["Address"];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Cart"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListCoupons: {
    parameters: {
      query?: {
        /** @description Part of the code (case-insensitive) */
        query?: string;
        /** @description Page number, from 1. Out of range is a 400, never clamped. */
        page?: components["parameters"]["Page"];
        /** @description Items per page, 1 to 100. Out of range is a 400, never clamped. */
        limit?: components["parameters"]["Limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Coupon"][];
            meta: components["schemas"]["PageMeta"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminCreateCoupon: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description 1–64 letters, digits, `-` or `_`; stored upper-case */
          code: string;
          /** @description percentage (value = percent 1–100), fixed (value = minor units), free_shipping (no value) */
          type: "percentage" | "fixed" | "free_shipping";
          /** @description Percent 1–100 (percentage), minor units ≥ 1 (fixed), absent or 0 (free_shipping) */
          value?: number;
          minSubtotal?: number | null;
          startsAt?: string | null;
          endsAt?: string | null;
          usageLimit?: number | null;
          /** @description Default true */
          active?: boolean;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Coupon"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminGetCoupon: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id (`cpn_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Coupon"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminDeleteCoupon: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`cpn_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done */
      204: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminUpdateCoupon: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`cpn_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          /** @description 1–64 letters, digits, `-` or `_`; stored upper-case */
          code?: string;
          /** @description percentage (value = percent 1–100), fixed (value = minor units), free_shipping (no value) */
          type?: "percentage" | "fixed" | "free_shipping";
          /** @description Percent 1–100 (percentage), minor units ≥ 1 (fixed), absent or 0 (free_shipping) */
          value?: number;
          minSubtotal?: number | null;
          startsAt?: string | null;
          endsAt?: string | null;
          usageLimit?: number | null;
          /** @description Default true */
          active?: boolean;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Coupon"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListShippingMethods: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ShippingMethod"][];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminCreateShippingMethod: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /**
           * @description Text per locale; the store's default locale is required
           * @example {
           *       "en": "Linen shirt",
           *       "pt": "Camisa de linho"
           *     }
           */
          name: {
            [key: string]: string;
          };
          /** @description Price in minor units */
          price: number;
          description?: {
            [key: string]: string;
          } | null;
          freeOver?: number | null;
          /** @description Countries served; empty = every country. Duplicates are dropped */
          countries?: string[];
          minDays?: number | null;
          maxDays?: number | null;
          /** @description Default true */
          active?: boolean;
          /** @description Default 0 */
          position?: number;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ShippingMethod"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["IdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminGetShippingMethod: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id (`shp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ShippingMethod"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminDeleteShippingMethod: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`shp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done */
      204: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminUpdateShippingMethod: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`shp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          /**
           * @description Text per locale; the store's default locale is required
           * @example {
           *       "en": "Linen shirt",
           *       "pt": "Camisa de linho"
           *     }
           */
          name?: {
            [key: string]: string;
          };
          /** @description Price in minor units */
          price?: number;
          description?: {
            [key: string]: string;
          } | null;
          freeOver?: number | null;
          /** @description Countries served; empty = every country. Duplicates are dropped */
          countries?: string[];
          minDays?: number | null;
          maxDays?: number | null;
          /** @description Default true */
          active?: boolean;
          /** @description Default 0 */
          position?: number;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ShippingMethod"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  placeOrder: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`cart_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        /**
         * @example {
         *       "note": "Please leave it with the neighbour."
         *     }
         */
        "application/json": {
          /** Format: email */
          email?: string;
          paymentMethodId?: string;
          /** @description For methods that require a phone (MB WAY); default: the billing or shipping address's */
          phone?: string;
          /** @description Where a redirect payment (card) sends the shopper back to: on one of the shop's hosts (a verified domain or its platform host) or an origin of its `allowedOrigins`, else a 422 */
          returnUrl?: string;
          note?: string;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "ord_0VbsQ4kPBABCVxkvGqRJzntQ",
           *         "number": 1001,
           *         "status": "open",
           *         "paymentStatus": "pending",
           *         "fulfillmentStatus": "unfulfilled",
           *         "email": "ana@example.com",
           *         "customerId": "cus_0VbsQ4kP9sY3cfIIZWe77EGh",
           *         "currency": "EUR",
           *         "items": [
           *           {
           *             "productId": "prod_0VbsQ4jiETTgI3pgLfV8yjuj",
           *             "variantId": "var_0VbsQ4jjVDb4LNNmYP9hh0ec",
           *             "productName": {
           *               "en": "Linen shirt",
           *               "pt": "Camisa de linho"
           *             },
           *             "variantTitle": "Default",
           *             "sku": "LIN-SHIRT-M",
           *             "unitPrice": {
           *               "amount": 4500,
           *               "currency": "EUR"
           *             },
           *             "quantity": 2,
           *             "subtotal": {
           *               "amount": 9000,
           *               "currency": "EUR"
           *             },
           *             "discount": {
           *               "amount": 0,
           *               "currency": "EUR"
           *             },
           *             "taxRate": 2300,
           *             "tax": {
           *               "amount": 1683,
           *               "currency": "EUR"
           *             },
           *             "total": {
           *               "amount": 9000,
           *               "currency": "EUR"
           *             }
           *           }
           *         ],
           *         "shippingAddress": {
           *           "firstName": "Ana",
           *           "lastName": "Silva",
           *           "line1": "Rua Augusta 10",
           *           "city": "Lisboa",
           *           "country": "PT",
           *           "postalCode": "1100-053"
           *         },
           *         "billingAddress": {
           *           "firstName": "Ana",
           *           "lastName": "Silva",
           *           "line1": "Rua Augusta 10",
           *           "city": "Lisboa",
           *           "country": "PT",
           *           "postalCode": "1100-053"
           *         },
           *         "shippingMethod": {
           *           "id": "shp_0VbsQ4jWFrb8RKDbEf9Szr9e",
           *           "name": {
           *             "en": "Portugal"
           *           },
           *           "price": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           }
           *         },
           *         "coupon": null,
           *         "paymentMethod": null,
           *         "totals": {
           *           "subtotal": {
           *             "amount": 9000,
           *             "currency": "EUR"
           *           },
           *           "discount": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           },
           *           "shipping": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           },
           *           "tax": {
           *             "amount": 1683,
           *             "currency": "EUR"
           *           },
           *           "total": {
           *             "amount": 9000,
           *             "currency": "EUR"
           *           },
           *           "refunded": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           }
           *         },
           *         "payment": null,
           *         "payments": [],
           *         "paymentFlags": [],
           *         "refunds": [],
           *         "fulfillments": [],
           *         "events": [
           *           {
           *             "type": "placed",
           *             "message": "Order #1001 placed",
           *             "createdAt": "2026-11-24T08:19:14.813Z"
           *           }
           *         ],
           *         "note": "Please leave it with the neighbour.",
           *         "placedAt": "2026-11-24T08:19:14.813Z",
           *         "paidAt": null,
           *         "cancelledAt": null,
           *         "updatedAt": "2026-11-24T08:19:14.813Z",
           *         "accessToken": "3FDheAJ23MXJs2PuyRO9vEvOXIewNVg6WqM1i90JfcO"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["Order"] & {
              /** @description Lets a guest read this order: GET /v1/orders/{id}?token= */
              accessToken: string;
            };
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflictOrInsufficientStock"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["CouponInvalidOrUnprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  listOrders: {
    parameters: {
      query?: {
        /** @description Page number, from 1. Out of range is a 400, never clamped. */
        page?: components["parameters"]["Page"];
        /** @description Items per page, 1 to 100. Out of range is a 400, never clamped. */
        limit?: components["parameters"]["Limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["OrderSummary"][];
            meta: components["schemas"]["PageMeta"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  getOrder: {
    parameters: {
      query?: {
        /** @description The order's access token (guest checkout) */
        token?: string;
      };
      header?: never;
      path: {
        /** @description Id (`ord_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "ord_0VbsQ4kPBABCVxkvGqRJzntQ",
           *         "number": 1001,
           *         "status": "open",
           *         "paymentStatus": "pending",
           *         "fulfillmentStatus": "unfulfilled",
           *         "email": "ana@example.com",
           *         "customerId": "cus_0VbsQ4kP9sY3cfIIZWe77EGh",
           *         "currency": "EUR",
           *         "items": [
           *           {
           *             "productId": "prod_0VbsQ4jiETTgI3pgLfV8yjuj",
           *             "variantId": "var_0VbsQ4jjVDb4LNNmYP9hh0ec",
           *             "productName": {
           *               "en": "Linen shirt",
           *               "pt": "Camisa de linho"
           *             },
           *             "variantTitle": "Default",
           *             "sku": "LIN-SHIRT-M",
           *             "unitPrice": {
           *               "amount": 4500,
           *               "currency": "EUR"
           *             },
           *             "quantity": 2,
           *             "subtotal": {
           *               "amount": 9000,
           *               "currency": "EUR"
           *             },
           *             "discount": {
           *               "amount": 0,
           *               "currency": "EUR"
           *             },
           *             "taxRate": 2300,
           *             "tax": {
           *               "amount": 1683,
           *               "currency": "EUR"
           *             },
           *             "total": {
           *               "amount": 9000,
           *               "currency": "EUR"
           *             }
           *           }
           *         ],
           *         "shippingAddress": {
           *           "firstName": "Ana",
           *           "lastName": "Silva",
           *           "line1": "Rua Augusta 10",
           *           "city": "Lisboa",
           *           "country": "PT",
           *           "postalCode": "1100-053"
           *         },
           *         "billingAddress": {
           *           "firstName": "Ana",
           *           "lastName": "Silva",
           *           "line1": "Rua Augusta 10",
           *           "city": "Lisboa",
           *           "country": "PT",
           *           "postalCode": "1100-053"
           *         },
           *         "shippingMethod": {
           *           "id": "shp_0VbsQ4jWFrb8RKDbEf9Szr9e",
           *           "name": {
           *             "en": "Portugal"
           *           },
           *           "price": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           }
           *         },
           *         "coupon": null,
           *         "paymentMethod": null,
           *         "totals": {
           *           "subtotal": {
           *             "amount": 9000,
           *             "currency": "EUR"
           *           },
           *           "discount": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           },
           *           "shipping": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           },
           *           "tax": {
           *             "amount": 1683,
           *             "currency": "EUR"
           *           },
           *           "total": {
           *             "amount": 9000,
           *             "currency": "EUR"
           *           },
           *           "refunded": {
           *             "amount": 0,
           *             "currency": "EUR"
           *           }
           *         },
           *         "payment": null,
           *         "payments": [],
           *         "paymentFlags": [],
           *         "refunds": [],
           *         "fulfillments": [],
           *         "events": [
           *           {
           *             "type": "placed",
           *             "message": "Order #1001 placed",
           *             "createdAt": "2026-11-24T08:19:14.813Z"
           *           }
           *         ],
           *         "note": "Please leave it with the neighbour.",
           *         "placedAt": "2026-11-24T08:19:14.813Z",
           *         "paidAt": null,
           *         "cancelledAt": null,
           *         "updatedAt": "2026-11-24T08:19:14.813Z"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["Order"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListOrders: {
    parameters: {
      query?: {
        status?: "open" | "completed" | "cancelled";
        paymentStatus?:
          | "pending"
          | "processing"
          | "paid"
          | "partially_refunded"
          | "refunded"
          | "failed"
          | "expired";
        fulfillmentStatus?: "unfulfilled" | "fulfilled";
        /** @description Order number (exact, `#` optional), or part of the email or of the customer's first or last name */
        query?: string;
        /** @description Placed at or after (ISO 8601) */
        from?: string;
        /** @description Placed before (ISO 8601) */
        to?: string;
        /** @description Page number, from 1. Out of range is a 400, never clamped. */
        page?: components["parameters"]["Page"];
        /** @description Items per page, 1 to 100. Out of range is a 400, never clamped. */
        limit?: components["parameters"]["Limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["OrderSummary"][];
            meta: components["schemas"]["PageMeta"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminGetOrder: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id (`ord_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Order"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminFulfillOrder: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`ord_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          carrier?: string;
          trackingNumber?: string;
          /** @description An http(s) URL */
          trackingUrl?: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Order"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminRefundOrder: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`ord_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          /** @description Minor units; defaults to what is left to refund (total − refunded) */
          amount?: number;
          reason?: string;
          /** @description Give the order's units back to stock (once per order); default false */
          restock?: boolean;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Order"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminCancelOrder: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`ord_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Order"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminMarkOrderPaid: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`ord_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Order"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminDashboardStats: {
    parameters: {
      query?: {
        /** @description Default: to − 30 days */
        from?: string;
        /** @description Default: now */
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["DashboardStats"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  signUpCustomer: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** Format: email */
          email: string;
          /** @description At least 8 characters */
          password: string;
          firstName?: string;
          lastName?: string;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              customer: components["schemas"]["Account"];
              /** @description The session token (also set as the `customer_session` cookie); send it as `x-customer-session` */
              token: string;
            };
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  signInCustomer: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** Format: email */
          email: string;
          password: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              customer: components["schemas"]["Account"];
              /** @description The session token (also set as the `customer_session` cookie); send it as `x-customer-session` */
              token: string;
            };
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["IdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  signOutCustomer: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              success: boolean;
            };
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["IdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  getAccount: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              customer: components["schemas"]["Account"];
            };
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  requestCustomerPasswordReset: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "email": "ana@example.com",
         *       "resetUrl": "https://shop.example.com/account/reset"
         *     }
         */
        "application/json": {
          /** Format: email */
          email: string;
          /** @description The storefront page the emailed link opens */
          resetUrl: string;
        };
      };
    };
    responses: {
      /** @description Success */
      202: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              /**
               * @description Always true: a link was sent if the email has an account, and the answer never says which
               * @constant
               */
              accepted: true;
            };
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["IdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  confirmCustomerPasswordReset: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description The `token` of the emailed link */
          token: string;
          /** @description At least 8 characters */
          password: string;
        };
      };
    };
    responses: {
      /** @description Done */
      204: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["TokenInvalidOrValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["IdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListCustomers: {
    parameters: {
      query?: {
        /** @description Part of the email, first, last or full name */
        query?: string;
        /** @description Page number, from 1. Out of range is a 400, never clamped. */
        page?: components["parameters"]["Page"];
        /** @description Items per page, 1 to 100. Out of range is a 400, never clamped. */
        limit?: components["parameters"]["Limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Customer"][];
            meta: components["schemas"]["PageMeta"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminGetCustomer: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id (`cus_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Customer"] & {
              /** @description The last 10 orders, newest first */
              recentOrders: {
                id: string;
                number: number;
                status: "open" | "completed" | "cancelled";
                paymentStatus:
                  | "pending"
                  | "processing"
                  | "paid"
                  | "partially_refunded"
                  | "refunded"
                  | "failed"
                  | "expired";
                total: components["schemas"]["Money"];
                /**
                 * Format: date-time
                 * @description ISO 8601 UTC
                 */
                placedAt: string;
              }[];
            };
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListIntegrations: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Integration"][];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminGetIntegration: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description stripe, ifthenpay or easypay */
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Integration"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminPutIntegration: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description stripe, ifthenpay or easypay */
        provider: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description false stops offering the provider's methods (default true) */
          enabled?: boolean;
          /** @description stripe: secretKey*, publishableKey, webhookSecret*; ifthenpay: antiPhishingKey*, mbKey*, mbWayKey*, multibancoExpiryDays; easypay: accountId, apiKey*, webhookSecret*, environment (production | sandbox). Secrets (*): a string sets, null clears, omitted keeps. Other fields are replaced as given. */
          fields: {
            [key: string]: string | number | null;
          };
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Integration"];
          };
        };
      };
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Integration"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["UnavailableOrUpstreamUnavailable"];
    };
  };
  adminDeleteIntegration: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description stripe, ifthenpay or easypay */
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done */
      204: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  listCartPaymentMethods: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id (`cart_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["PaymentMethod"][];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  retryOrderPayment: {
    parameters: {
      query?: {
        /** @description The order's access token (guest checkout) */
        token?: string;
      };
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`ord_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          /** @description Where a redirect payment (card) sends the shopper back to: on one of the shop's hosts (a verified domain or its platform host) or an origin of its `allowedOrigins`, else a 422 */
          returnUrl?: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Order"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  confirmOrderPayment: {
    parameters: {
      query?: {
        /** @description The order's access token (guest checkout) */
        token?: string;
      };
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`ord_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description The `session_id` Stripe appended to the return URL */
          sessionId: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Order"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["UnavailableOrUpstreamUnavailable"];
    };
  };
  paymentWebhookGet: {
    parameters: {
      query?: {
        /** @description The organization's id, or `_` for the platform's own accounts (the store is found from the payment) */
        org?: string;
        /** @description Ifthenpay: the anti-phishing key, the proof of its callback */
        key?: string;
        /** @description Ifthenpay: the payment's order reference */
        orderId?: string;
        /** @description Ifthenpay: the amount paid in euros (`24.89`) */
        amount?: string;
        /** @description Ifthenpay: the payment request's id */
        requestId?: string;
        /** @description Ifthenpay, Multibanco: the entity */
        entity?: string;
        /** @description Ifthenpay, Multibanco: the reference */
        reference?: string;
        /** @description Ifthenpay: when the payment was made */
        payment_datetime?: string;
      };
      header?: never;
      path: {
        /** @description stripe, ifthenpay or easypay */
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["PaymentWebhookAnswer"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["UnauthorizedOrWebhookSignatureInvalid"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
      500: components["responses"]["Internal"];
      503: components["responses"]["ProviderNotConfiguredOrUnavailableOrUpstreamUnavailableOrWebhooksDisabled"];
    };
  };
  paymentWebhook: {
    parameters: {
      query?: {
        /** @description The organization's id, or `_` for the platform's own accounts (the store is found from the payment) */
        org?: string;
        /** @description Ifthenpay: the anti-phishing key, the proof of its callback */
        key?: string;
        /** @description Ifthenpay: the payment's order reference */
        orderId?: string;
        /** @description Ifthenpay: the amount paid in euros (`24.89`) */
        amount?: string;
        /** @description Ifthenpay: the payment request's id */
        requestId?: string;
        /** @description Ifthenpay, Multibanco: the entity */
        entity?: string;
        /** @description Ifthenpay, Multibanco: the reference */
        reference?: string;
        /** @description Ifthenpay: when the payment was made */
        payment_datetime?: string;
      };
      header?: never;
      path: {
        /** @description stripe, ifthenpay or easypay */
        provider: string;
      };
      cookie?: never;
    };
    /** @description The notification exactly as its sender sent it (JSON or a form), verified byte for byte before it is read. */
    requestBody?: {
      content: {
        "*/*": unknown;
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["PaymentWebhookAnswer"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["UnauthorizedOrWebhookSignatureInvalid"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
      500: components["responses"]["Internal"];
      503: components["responses"]["ProviderNotConfiguredOrUnavailableOrUpstreamUnavailableOrWebhooksDisabled"];
    };
  };
  paymentWebhookIngressGet: {
    parameters: {
      query?: {
        /** @description Ifthenpay: the anti-phishing key, the proof of its callback */
        key?: string;
        /** @description Ifthenpay: the payment's order reference */
        orderId?: string;
        /** @description Ifthenpay: the amount paid in euros (`24.89`) */
        amount?: string;
        /** @description Ifthenpay: the payment request's id */
        requestId?: string;
        /** @description Ifthenpay, Multibanco: the entity */
        entity?: string;
        /** @description Ifthenpay, Multibanco: the reference */
        reference?: string;
        /** @description Ifthenpay: when the payment was made */
        payment_datetime?: string;
      };
      header?: never;
      path: {
        /** @description stripe, ifthenpay or easypay */
        provider: string;
        /** @description The organization's id, or `_` for the platform's own accounts (the store is found from the payment) */
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["PaymentWebhookAnswer"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["UnauthorizedOrWebhookSignatureInvalid"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["ProviderNotConfiguredOrUnavailableOrUpstreamUnavailableOrWebhooksDisabled"];
    };
  };
  paymentWebhookIngress: {
    parameters: {
      query?: {
        /** @description Ifthenpay: the anti-phishing key, the proof of its callback */
        key?: string;
        /** @description Ifthenpay: the payment's order reference */
        orderId?: string;
        /** @description Ifthenpay: the amount paid in euros (`24.89`) */
        amount?: string;
        /** @description Ifthenpay: the payment request's id */
        requestId?: string;
        /** @description Ifthenpay, Multibanco: the entity */
        entity?: string;
        /** @description Ifthenpay, Multibanco: the reference */
        reference?: string;
        /** @description Ifthenpay: when the payment was made */
        payment_datetime?: string;
      };
      header?: never;
      path: {
        /** @description stripe, ifthenpay or easypay */
        provider: string;
        /** @description The organization's id, or `_` for the platform's own accounts (the store is found from the payment) */
        org: string;
      };
      cookie?: never;
    };
    /** @description The notification exactly as its sender sent it (JSON or a form), verified byte for byte before it is read. */
    requestBody?: {
      content: {
        "*/*": unknown;
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["PaymentWebhookAnswer"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["UnauthorizedOrWebhookSignatureInvalid"];
      404: components["responses"]["NotFound"];
      413: components["responses"]["PayloadTooLarge"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["ProviderNotConfiguredOrUnavailableOrUpstreamUnavailableOrWebhooksDisabled"];
    };
  };
  adminPreviewEmail: {
    parameters: {
      query?: {
        /** @description `pt`, `en`, `pt-PT` */
        locale?: string;
      };
      header?: never;
      path: {
        template:
          | "order_confirmation"
          | "payment_instructions"
          | "payment_received"
          | "order_shipped"
          | "order_refunded"
          | "order_cancelled"
          | "new_order"
          | "low_stock"
          | "webhook_failing"
          | "password_reset"
          | "member_invite";
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "template": "order_shipped",
           *         "locale": "en",
           *         "subject": "Your order #1042 is on its way",
           *         "html": "<!doctype html>…",
           *         "text": "Your order #1042 is on its way…"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["EmailPreview"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListEvents: {
    parameters: {
      query?: {
        /** @description Page number, from 1. Out of range is a 400, never clamped. */
        page?: components["parameters"]["Page"];
        /** @description Items per page, 1 to 100. Out of range is a 400, never clamped. */
        limit?: components["parameters"]["Limit"];
        /** @description Only these types, comma-separated (`order.paid,order.refunded`) */
        type?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "evt_4Jp2cLxV9qRk1Ws8Tn3Yb7Hd",
           *           "type": "product.deleted",
           *           "createdAt": "2026-05-01T10:00:00.000Z",
           *           "data": {
           *             "object": {
           *               "id": "prod_0VbsQ4kG6pDPeiLQAuNT0mz5"
           *             }
           *           }
           *         }
           *       ],
           *       "meta": {
           *         "page": 1,
           *         "limit": 20,
           *         "total": 1
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["Event"][];
            meta: components["schemas"]["PageMeta"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminGetEvent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id (`evt_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "evt_4Jp2cLxV9qRk1Ws8Tn3Yb7Hd",
           *         "type": "product.deleted",
           *         "createdAt": "2026-05-01T10:00:00.000Z",
           *         "data": {
           *           "object": {
           *             "id": "prod_0VbsQ4kG6pDPeiLQAuNT0mz5"
           *           }
           *         }
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["Event"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListWebhookEndpoints: {
    parameters: {
      query?: {
        /** @description Page number, from 1. Out of range is a 400, never clamped. */
        page?: components["parameters"]["Page"];
        /** @description Items per page, 1 to 100. Out of range is a 400, never clamped. */
        limit?: components["parameters"]["Limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "we_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *           "url": "https://hooks.example.com/commerce",
           *           "events": [
           *             "order.paid",
           *             "order.refunded"
           *           ],
           *           "description": "Accounting",
           *           "enabled": true,
           *           "disabledReason": null,
           *           "failingSince": null,
           *           "previousSecretExpiresAt": null,
           *           "createdAt": "2026-05-01T10:00:00.000Z",
           *           "updatedAt": "2026-05-01T10:00:00.000Z"
           *         }
           *       ],
           *       "meta": {
           *         "page": 1,
           *         "limit": 20,
           *         "total": 1
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["WebhookEndpoint"][];
            meta: components["schemas"]["PageMeta"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminCreateWebhookEndpoint: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "url": "https://hooks.example.com/commerce",
         *       "events": [
         *         "order.paid",
         *         "order.refunded"
         *       ],
         *       "description": "Accounting"
         *     }
         */
        "application/json": {
          /** @description Where deliveries are POSTed: an absolute `https://` URL whose host resolves only to public addresses (docs/webhooks.md) */
          url: string;
          /** @description The event types sent to the endpoint (docs/events.md), or `["*"]` for every type, now and later */
          events: (
            | "order.placed"
            | "order.paid"
            | "order.payment_failed"
            | "order.cancelled"
            | "order.fulfilled"
            | "order.refunded"
            | "product.created"
            | "product.updated"
            | "product.deleted"
            | "inventory.low_stock"
            | "customer.created"
            | "webhook_endpoint.disabled"
            | "*"
          )[];
          /** @description A note for the merchant: what this endpoint is */
          description?: string;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "we_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *         "url": "https://hooks.example.com/commerce",
           *         "events": [
           *           "order.paid",
           *           "order.refunded"
           *         ],
           *         "description": "Accounting",
           *         "enabled": true,
           *         "disabledReason": null,
           *         "failingSince": null,
           *         "previousSecretExpiresAt": null,
           *         "createdAt": "2026-05-01T10:00:00.000Z",
           *         "updatedAt": "2026-05-01T10:00:00.000Z",
           *         "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["WebhookEndpointWithSecret"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["IdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminGetWebhookEndpoint: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id (`we_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "we_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *         "url": "https://hooks.example.com/commerce",
           *         "events": [
           *           "order.paid",
           *           "order.refunded"
           *         ],
           *         "description": "Accounting",
           *         "enabled": true,
           *         "disabledReason": null,
           *         "failingSince": null,
           *         "previousSecretExpiresAt": null,
           *         "createdAt": "2026-05-01T10:00:00.000Z",
           *         "updatedAt": "2026-05-01T10:00:00.000Z"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["WebhookEndpoint"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminDeleteWebhookEndpoint: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`we_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done */
      204: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminUpdateWebhookEndpoint: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`we_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        /**
         * @example {
         *       "enabled": true
         *     }
         */
        "application/json": {
          /** @description Where deliveries are POSTed: an absolute `https://` URL whose host resolves only to public addresses (docs/webhooks.md) */
          url?: string;
          /** @description The event types sent to the endpoint (docs/events.md), or `["*"]` for every type, now and later */
          events?: (
            | "order.placed"
            | "order.paid"
            | "order.payment_failed"
            | "order.cancelled"
            | "order.fulfilled"
            | "order.refunded"
            | "product.created"
            | "product.updated"
            | "product.deleted"
            | "inventory.low_stock"
            | "customer.created"
            | "webhook_endpoint.disabled"
            | "*"
          )[];
          description?: string | null;
          /** @description `true` re-enables a disabled endpoint and clears its failure */
          enabled?: boolean;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "we_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *         "url": "https://hooks.example.com/commerce",
           *         "events": [
           *           "order.paid",
           *           "order.refunded"
           *         ],
           *         "description": "Accounting",
           *         "enabled": true,
           *         "disabledReason": null,
           *         "failingSince": null,
           *         "previousSecretExpiresAt": null,
           *         "createdAt": "2026-05-01T10:00:00.000Z",
           *         "updatedAt": "2026-05-01T10:00:00.000Z"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["WebhookEndpoint"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminRotateWebhookSecret: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`we_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "we_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *         "url": "https://hooks.example.com/commerce",
           *         "events": [
           *           "order.paid",
           *           "order.refunded"
           *         ],
           *         "description": "Accounting",
           *         "enabled": true,
           *         "disabledReason": null,
           *         "failingSince": null,
           *         "previousSecretExpiresAt": "2026-05-02T10:00:00.000Z",
           *         "createdAt": "2026-05-01T10:00:00.000Z",
           *         "updatedAt": "2026-05-01T10:00:00.000Z",
           *         "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["WebhookEndpointWithSecret"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminPingWebhookEndpoint: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`we_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "succeeded": true,
           *         "messageId": "msg_0VbsQ4kG8sTqWmv2LhX7cN1p",
           *         "statusCode": 204,
           *         "error": null,
           *         "durationMs": 87
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["WebhookPingResult"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListWebhookDeliveries: {
    parameters: {
      query?: {
        /** @description Page number, from 1. Out of range is a 400, never clamped. */
        page?: components["parameters"]["Page"];
        /** @description Items per page, 1 to 100. Out of range is a 400, never clamped. */
        limit?: components["parameters"]["Limit"];
      };
      header?: never;
      path: {
        /** @description Id (`we_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "whd_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *           "endpointId": "we_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *           "eventId": "evt_4Jp2cLxV9qRk1Ws8Tn3Yb7Hd",
           *           "eventType": "order.paid",
           *           "messageId": "msg_0VbsQ4kG8sTqWmv2LhX7cN1p",
           *           "status": "pending",
           *           "attempts": 2,
           *           "lastStatusCode": 503,
           *           "lastError": "HTTP 503",
           *           "lastDurationMs": 412,
           *           "nextAttemptAt": "2026-05-01T10:05:05.000Z",
           *           "createdAt": "2026-05-01T10:00:00.000Z",
           *           "updatedAt": "2026-05-01T10:00:05.000Z"
           *         }
           *       ],
           *       "meta": {
           *         "page": 1,
           *         "limit": 20,
           *         "total": 1
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["WebhookDelivery"][];
            meta: components["schemas"]["PageMeta"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminRetryWebhookDelivery: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`we_…`) */
        id: string;
        /** @description Id (`whd_…`) */
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "whd_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *         "endpointId": "we_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *         "eventId": "evt_4Jp2cLxV9qRk1Ws8Tn3Yb7Hd",
           *         "eventType": "order.paid",
           *         "messageId": "msg_0VbsQ4kG8sTqWmv2LhX7cN1p",
           *         "status": "succeeded",
           *         "attempts": 3,
           *         "lastStatusCode": 503,
           *         "lastError": "HTTP 503",
           *         "lastDurationMs": 412,
           *         "nextAttemptAt": null,
           *         "createdAt": "2026-05-01T10:00:00.000Z",
           *         "updatedAt": "2026-05-01T10:00:05.000Z"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["WebhookDelivery"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminGetReadiness: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Readiness"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListAgents: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["AgentHost"][];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminRevokeAgent: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`agt_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Agent"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  openCheckoutSession: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          /** @description All the lines: replaces the cart's (a variant already there keeps its line) */
          lines?: {
            /** @description Id (`var_…`) */
            variantId?: string;
            /** @description Id (`prod_…`) */
            productId?: string;
            quantity: number;
          }[];
          buyer?: {
            /** Format: email */
            email?: string;
            firstName?: string;
            lastName?: string;
            /** @description For payment methods that need one (MB WAY) */
            phone?: string;
          };
          shippingAddress?: {
            firstName: string;
            lastName: string;
            company?: string;
            line1: string;
            line2?: string;
            city: string;
            postalCode?: string;
            region?: string;
            /** @description ISO 3166-1 alpha-2 */
            country: string;
            phone?: string;
          };
          billingAddress?: {
            firstName: string;
            lastName: string;
            company?: string;
            line1: string;
            line2?: string;
            city: string;
            postalCode?: string;
            region?: string;
            /** @description ISO 3166-1 alpha-2 */
            country: string;
            phone?: string;
          };
          /** @description Id (`shp_…`) */
          shippingMethodId?: string;
          /** @description One of `paymentMethods[].id` */
          paymentMethodId?: string;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["CheckoutSession"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflictOrInsufficientStock"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  getCheckoutSession: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Id (`chk_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["CheckoutSession"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  updateCheckoutSession: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`chk_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          /** @description All the lines: replaces the cart's (a variant already there keeps its line) */
          lines?: {
            /** @description Id (`var_…`) */
            variantId?: string;
            /** @description Id (`prod_…`) */
            productId?: string;
            quantity: number;
          }[];
          buyer?: {
            /** Format: email */
            email?: string;
            firstName?: string;
            lastName?: string;
            /** @description For payment methods that need one (MB WAY) */
            phone?: string;
          };
          shippingAddress?: {
            firstName: string;
            lastName: string;
            company?: string;
            line1: string;
            line2?: string;
            city: string;
            postalCode?: string;
            region?: string;
            /** @description ISO 3166-1 alpha-2 */
            country: string;
            phone?: string;
          };
          billingAddress?: {
            firstName: string;
            lastName: string;
            company?: string;
            line1: string;
            line2?: string;
            city: string;
            postalCode?: string;
            region?: string;
            /** @description ISO 3166-1 alpha-2 */
            country: string;
            phone?: string;
          };
          /** @description Id (`shp_…`) */
          shippingMethodId?: string;
          /** @description One of `paymentMethods[].id` */
          paymentMethodId?: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["CheckoutSession"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflictOrInsufficientStock"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  cancelCheckoutSession: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`chk_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["CheckoutSession"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  completeCheckoutSession: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`chk_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          /** @description A card payment the buyer's agent platform delegated (a Stripe Shared Payment Token for this shop), charged at once with the session's card method instead of sending the buyer to a payment page */
          paymentCredential?: {
            /** @constant */
            type: "stripe_shared_payment_token";
            /** @description The granted token (`spt_…`) */
            token: string;
          };
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["CheckoutSession"] & {
              /** @description Lets a guest read the order: GET /v1/orders/{id}?token= */
              accessToken: string;
            };
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["ConflictOrIdempotencyConflictOrInsufficientStock"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["CouponInvalidOrUnprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  getCheckoutSessionOfOrder: {
    parameters: {
      query: {
        /** @description Id (`ord_…`) */
        orderId: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["CheckoutSession"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminListAcpPlatforms: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "acpp_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *           "name": "ChatGPT",
           *           "tokenHint": "x9Qa",
           *           "webhookUrl": "https://platform.example/agentic_checkout/webhooks/order_events",
           *           "createdAt": "2026-05-01T10:00:00.000Z",
           *           "updatedAt": "2026-05-01T10:00:00.000Z"
           *         }
           *       ]
           *     }
           */
          "application/json": {
            data: components["schemas"]["AcpPlatform"][];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminCreateAcpPlatform: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "ChatGPT",
         *       "webhookUrl": "https://platform.example/agentic_checkout/webhooks/order_events"
         *     }
         */
        "application/json": {
          /** @description Which platform this is, for the merchant (e.g. `ChatGPT`) */
          name: string;
          webhookUrl?: string | null;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "acpp_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *         "name": "ChatGPT",
           *         "tokenHint": "x9Qa",
           *         "webhookUrl": "https://platform.example/agentic_checkout/webhooks/order_events",
           *         "createdAt": "2026-05-01T10:00:00.000Z",
           *         "updatedAt": "2026-05-01T10:00:00.000Z",
           *         "token": "acp_Zr8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8Gx9Qa",
           *         "signingSecret": "9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["AcpPlatformWithSecrets"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["IdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminDeleteAcpPlatform: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`acpp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done */
      204: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminUpdateAcpPlatform: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`acpp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        /**
         * @example {
         *       "name": "ChatGPT (live)"
         *     }
         */
        "application/json": {
          /** @description Which platform this is, for the merchant (e.g. `ChatGPT`) */
          name?: string;
          webhookUrl?: string | null;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "acpp_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *         "name": "ChatGPT",
           *         "tokenHint": "x9Qa",
           *         "webhookUrl": "https://platform.example/agentic_checkout/webhooks/order_events",
           *         "createdAt": "2026-05-01T10:00:00.000Z",
           *         "updatedAt": "2026-05-01T10:00:00.000Z"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["AcpPlatform"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      413: components["responses"]["PayloadTooLarge"];
      422: components["responses"]["Unprocessable"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  adminRotateAcpPlatformToken: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write safe to retry: the same key with the same input within 24 hours answers the stored response again (with `idempotent-replayed: true`) without doing anything; the same key with another input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Id (`acpp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          "x-request-id": components["headers"]["RequestId"];
          "idempotent-replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": "acpp_0VbsQ4kG6pDPeiLQAuNT0mz5",
           *         "name": "ChatGPT",
           *         "tokenHint": "x9Qa",
           *         "webhookUrl": "https://platform.example/agentic_checkout/webhooks/order_events",
           *         "createdAt": "2026-05-01T10:00:00.000Z",
           *         "updatedAt": "2026-05-01T10:00:00.000Z",
           *         "token": "acp_Zr8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8Gx9Qa"
           *       }
           *     }
           */
          "application/json": {
            data: components["schemas"]["AcpPlatformWithToken"];
          };
        };
      };
      400: components["responses"]["ValidationError"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["IdempotencyConflict"];
      429: components["responses"]["RateLimited"];
      500: components["responses"]["Internal"];
      503: components["responses"]["Unavailable"];
    };
  };
  orderPlacedWebhook: {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every retry of one delivery */
        "webhook-id": string;
        /** @description When this attempt was signed, in seconds since 1970 */
        "webhook-timestamp": string;
        /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret (two, space-separated, while a rotated secret is still valid) */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Id (`evt_…`) */
          id: string;
          /** @constant */
          type: "order.placed";
          /**
           * Format: date-time
           * @description ISO 8601 UTC
           */
          createdAt: string;
          data: {
            object: components["schemas"]["Order"];
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx ends the delivery */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the service disables the endpoint and sends it nothing more */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  orderPaidWebhook: {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every retry of one delivery */
        "webhook-id": string;
        /** @description When this attempt was signed, in seconds since 1970 */
        "webhook-timestamp": string;
        /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret (two, space-separated, while a rotated secret is still valid) */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Id (`evt_…`) */
          id: string;
          /** @constant */
          type: "order.paid";
          /**
           * Format: date-time
           * @description ISO 8601 UTC
           */
          createdAt: string;
          data: {
            object: components["schemas"]["Order"];
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx ends the delivery */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the service disables the endpoint and sends it nothing more */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  orderPaymentFailedWebhook: {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every retry of one delivery */
        "webhook-id": string;
        /** @description When this attempt was signed, in seconds since 1970 */
        "webhook-timestamp": string;
        /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret (two, space-separated, while a rotated secret is still valid) */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Id (`evt_…`) */
          id: string;
          /** @constant */
          type: "order.payment_failed";
          /**
           * Format: date-time
           * @description ISO 8601 UTC
           */
          createdAt: string;
          data: {
            object: components["schemas"]["Order"];
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx ends the delivery */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the service disables the endpoint and sends it nothing more */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  orderCancelledWebhook: {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every retry of one delivery */
        "webhook-id": string;
        /** @description When this attempt was signed, in seconds since 1970 */
        "webhook-timestamp": string;
        /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret (two, space-separated, while a rotated secret is still valid) */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Id (`evt_…`) */
          id: string;
          /** @constant */
          type: "order.cancelled";
          /**
           * Format: date-time
           * @description ISO 8601 UTC
           */
          createdAt: string;
          data: {
            object: components["schemas"]["Order"];
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx ends the delivery */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the service disables the endpoint and sends it nothing more */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  orderFulfilledWebhook: {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every retry of one delivery */
        "webhook-id": string;
        /** @description When this attempt was signed, in seconds since 1970 */
        "webhook-timestamp": string;
        /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret (two, space-separated, while a rotated secret is still valid) */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Id (`evt_…`) */
          id: string;
          /** @constant */
          type: "order.fulfilled";
          /**
           * Format: date-time
           * @description ISO 8601 UTC
           */
          createdAt: string;
          data: {
            object: components["schemas"]["Order"];
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx ends the delivery */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the service disables the endpoint and sends it nothing more */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  orderRefundedWebhook: {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every retry of one delivery */
        "webhook-id": string;
        /** @description When this attempt was signed, in seconds since 1970 */
        "webhook-timestamp": string;
        /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret (two, space-separated, while a rotated secret is still valid) */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Id (`evt_…`) */
          id: string;
          /** @constant */
          type: "order.refunded";
          /**
           * Format: date-time
           * @description ISO 8601 UTC
           */
          createdAt: string;
          data: {
            object: components["schemas"]["Order"];
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx ends the delivery */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the service disables the endpoint and sends it nothing more */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  productCreatedWebhook: {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every retry of one delivery */
        "webhook-id": string;
        /** @description When this attempt was signed, in seconds since 1970 */
        "webhook-timestamp": string;
        /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret (two, space-separated, while a rotated secret is still valid) */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Id (`evt_…`) */
          id: string;
          /** @constant */
          type: "product.created";
          /**
           * Format: date-time
           * @description ISO 8601 UTC
           */
          createdAt: string;
          data: {
            object: components["schemas"]["Product"];
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx ends the delivery */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the service disables the endpoint and sends it nothing more */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  productUpdatedWebhook: {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every retry of one delivery */
        "webhook-id": string;
        /** @description When this attempt was signed, in seconds since 1970 */
        "webhook-timestamp": string;
        /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret (two, space-separated, while a rotated secret is still valid) */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Id (`evt_…`) */
          id: string;
          /** @constant */
          type: "product.updated";
          /**
           * Format: date-time
           * @description ISO 8601 UTC
           */
          createdAt: string;
          data: {
            object: components["schemas"]["Product"];
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx ends the delivery */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the service disables the endpoint and sends it nothing more */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  productDeletedWebhook: {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every retry of one delivery */
        "webhook-id": string;
        /** @description When this attempt was signed, in seconds since 1970 */
        "webhook-timestamp": string;
        /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret (two, space-separated, while a rotated secret is still valid) */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Id (`evt_…`) */
          id: string;
          /** @constant */
          type: "product.deleted";
          /**
           * Format: date-time
           * @description ISO 8601 UTC
           */
          createdAt: string;
          data: {
            object: components["schemas"]["Product"];
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx ends the delivery */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the service disables the endpoint and sends it nothing more */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  inventoryLowStockWebhook: {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every retry of one delivery */
        "webhook-id": string;
        /** @description When this attempt was signed, in seconds since 1970 */
        "webhook-timestamp": string;
        /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret (two, space-separated, while a rotated secret is still valid) */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Id (`evt_…`) */
          id: string;
          /** @constant */
          type: "inventory.low_stock";
          /**
           * Format: date-time
           * @description ISO 8601 UTC
           */
          createdAt: string;
          data: {
            object: components["schemas"]["InventoryLevel"] & {
              /** @description The store's threshold it fell to */
              lowStockThreshold: number;
            };
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx ends the delivery */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the service disables the endpoint and sends it nothing more */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  customerCreatedWebhook: {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every retry of one delivery */
        "webhook-id": string;
        /** @description When this attempt was signed, in seconds since 1970 */
        "webhook-timestamp": string;
        /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret (two, space-separated, while a rotated secret is still valid) */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Id (`evt_…`) */
          id: string;
          /** @constant */
          type: "customer.created";
          /**
           * Format: date-time
           * @description ISO 8601 UTC
           */
          createdAt: string;
          data: {
            object: components["schemas"]["Customer"];
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx ends the delivery */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the service disables the endpoint and sends it nothing more */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookEndpointDisabledWebhook: {
    parameters: {
      query?: never;
      header: {
        /** @description The message id: the same on every retry of one delivery */
        "webhook-id": string;
        /** @description When this attempt was signed, in seconds since 1970 */
        "webhook-timestamp": string;
        /** @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret (two, space-separated, while a rotated secret is still valid) */
        "webhook-signature": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Id (`evt_…`) */
          id: string;
          /** @constant */
          type: "webhook_endpoint.disabled";
          /**
           * Format: date-time
           * @description ISO 8601 UTC
           */
          createdAt: string;
          data: {
            object: components["schemas"]["WebhookEndpoint"] & {
              /** @description The HTTP status of the last attempt; null when no answer came */
              lastStatusCode: number | null;
            };
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx ends the delivery */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the service disables the endpoint and sends it nothing more */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}
