import { variantByIdOrSku } from "../catalog/products.ts";
import { type AdapterCall, obj, type SessionRunner, str, titleOf } from "../checkout/adapter.ts";
import { ApiError } from "../core/errors.ts";
import { type Json, UcpError } from "./errors.ts";
import { UCP_VERSION } from "./wire.ts";

// UCP's catalog capabilities over the shop's storefront catalog: search (the API's listing and
// full-text search), batch lookup by product id, variant id, handle or SKU, and one product's detail
// with option selection. Each reads through the API's own operations or catalog functions, so only
// active products are shown, with availability and never stock counts.

export const CATALOG_SEARCH = "dev.ucp.shopping.catalog.search";
export const CATALOG_LOOKUP = "dev.ucp.shopping.catalog.lookup";

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;
const MAX_IDS = 50;

interface Money {
  amount: number;
  currency: string;
}
interface StorefrontVariant {
  id: string;
  sku: string | null;
  title: string;
  options: Record<string, string>;
  price: Money;
  compareAtPrice: Money | null;
  available: boolean;
}
interface StorefrontProduct {
  id: string;
  slug: string;
  name: Record<string, string>;
  description: Record<string, string> | null;
  tags: string[];
  images: { url: string; alt?: string }[];
  options: { name: string; values: string[] }[];
  variants: StorefrontVariant[];
}

/** How a shop's catalog reads to a platform: its language and the origin its media is served on. */
interface CatalogView {
  locale: string;
  origin: string;
}

const ucpOf = (capability: string) => ({
  version: UCP_VERSION,
  capabilities: { [capability]: [{ version: UCP_VERSION }] },
});
const price = (money: Money) => ({ amount: money.amount, currency: money.currency });
const absolute = (url: string, origin: string) => (url.startsWith("/") ? `${origin}${url}` : url);
/** A description in UCP's shape, which needs at least one format: plain text, empty when the product has none. */
const describe = (text: Record<string, string> | null, locale: string) => ({
  plain: text ? titleOf(text, locale) : "",
});

function variantOf(product: StorefrontProduct, variant: StorefrontVariant, view: CatalogView): Json {
  return {
    id: variant.id,
    ...(variant.sku ? { sku: variant.sku } : {}),
    title: variant.title,
    description: describe(product.description, view.locale),
    price: price(variant.price),
    ...(variant.compareAtPrice ? { list_price: price(variant.compareAtPrice) } : {}),
    availability: { available: variant.available },
    options: Object.entries(variant.options).map(([name, label]) => ({ name, label })),
  };
}

/** A product as UCP's `Product`, with the given variants (the featured one first). */
function productOf(product: StorefrontProduct, variants: StorefrontVariant[], view: CatalogView): Json {
  const prices = variants.map((v) => v.price.amount);
  const currency = variants[0]!.price.currency;
  const listPrices = variants.flatMap((v) => (v.compareAtPrice ? [v.compareAtPrice.amount] : []));
  return {
    id: product.id,
    handle: product.slug,
    title: titleOf(product.name, view.locale),
    description: describe(product.description, view.locale),
    price_range: {
      min: { amount: Math.min(...prices), currency },
      max: { amount: Math.max(...prices), currency },
    },
    ...(listPrices.length > 0
      ? {
          list_price_range: {
            min: { amount: Math.min(...listPrices), currency },
            max: { amount: Math.max(...listPrices), currency },
          },
        }
      : {}),
    media: product.images.map((image) => ({
      type: "image",
      url: absolute(image.url, view.origin),
      ...(image.alt ? { alt_text: image.alt } : {}),
    })),
    options: product.options.map((option) => ({
      name: option.name,
      values: option.values.map((label) => ({ label })),
    })),
    variants: variants.map((variant) => variantOf(product, variant, view)),
    tags: product.tags,
  };
}

/** Available variants first: UCP takes the first as the featured one. */
const featuredFirst = (variants: StorefrontVariant[]) =>
  [...variants].sort((a, b) => Number(b.available) - Number(a.available));

/** The variants a price filter keeps (`min`, `max` in minor units of the shop's currency). */
function priced(variants: StorefrontVariant[], filters: Json): StorefrontVariant[] {
  const range = obj(filters.price);
  const min = typeof range.min === "number" ? range.min : -Infinity;
  const max = typeof range.max === "number" ? range.max : Infinity;
  return variants.filter((v) => v.price.amount >= min && v.price.amount <= max);
}

const invalid = (content: string) => new UcpError(400, "invalid_request", content);

/** `pagination` as our page and limit: the cursor is the next page's number. */
function pageOf(pagination: Json): { page: number; limit: number } {
  const limit = pagination.limit === undefined ? DEFAULT_LIMIT : pagination.limit;
  if (!Number.isInteger(limit) || (limit as number) < 1)
    throw invalid("pagination.limit must be a whole number ≥ 1");
  const cursor = pagination.cursor;
  const page = cursor === undefined ? 1 : Number(cursor);
  if (typeof cursor !== "undefined" && (typeof cursor !== "string" || !/^[1-9]\d{0,6}$/.test(cursor))) {
    throw invalid("pagination.cursor is not one this shop gave");
  }
  return { page, limit: Math.min(limit as number, MAX_LIMIT) };
}

export class UcpCatalog {
  constructor(private readonly runner: SessionRunner) {}

  private async view(call: AdapterCall): Promise<CatalogView> {
    return { locale: this.runner.shopOf(call).locale, origin: call.origin };
  }

  /** The category a filter names, by id or slug (or name in the shop's language); undefined: none does. */
  private async categoryOf(call: AdapterCall, names: unknown[], locale: string): Promise<string | undefined> {
    const { envelope } = await this.runner.answer(call, "listCategories", {});
    const categories = envelope.data as { id: string; slug: string; name: Record<string, string> }[];
    for (const name of names.filter((n): n is string => typeof n === "string")) {
      const found = categories.find(
        (c) => c.id === name || c.slug === name || titleOf(c.name, locale) === name,
      );
      if (found) return found.id;
    }
    return undefined;
  }

  /** `search_catalog`: a query, filters (categories, price) or both; pages by cursor. */
  async search(call: AdapterCall, body: Json): Promise<Json> {
    const query = str(body.query)?.trim();
    const filters = obj(body.filters);
    const categories = Array.isArray(filters.categories) ? filters.categories : [];
    if (!query && categories.length === 0 && filters.price === undefined) {
      throw invalid("A search needs a query or filters (categories, price)");
    }
    if (query && query.length > 200) throw invalid("query is longer than 200 characters");
    const { page, limit } = pageOf(obj(body.pagination));
    const view = await this.view(call);
    const categoryId =
      categories.length > 0 ? await this.categoryOf(call, categories, view.locale) : undefined;
    // A category no one knows matches nothing (rather than everything).
    if (categories.length > 0 && !categoryId) {
      return {
        ucp: ucpOf(CATALOG_SEARCH),
        products: [],
        pagination: { has_next_page: false, total_count: 0 },
      };
    }
    const { envelope } = await this.runner.answer(call, "listProducts", {
      ...(query ? { query } : {}),
      ...(categoryId ? { categoryId } : {}),
      page,
      limit,
    });
    const total = Number(envelope.meta?.total ?? 0);
    const products = (envelope.data as StorefrontProduct[]).flatMap((product) => {
      const variants = priced(featuredFirst(product.variants), filters);
      return variants.length > 0 ? [productOf(product, variants, view)] : [];
    });
    const hasNext = page * limit < total;
    return {
      ucp: ucpOf(CATALOG_SEARCH),
      products,
      pagination: {
        has_next_page: hasNext,
        ...(hasNext ? { cursor: String(page + 1) } : {}),
        total_count: total,
      },
    };
  }

  /** An active product by id or handle (slug); null when there is none. */
  private async product(call: AdapterCall, idOrSlug: string): Promise<StorefrontProduct | null> {
    if (!/^[A-Za-z0-9_-]{1,120}$/.test(idOrSlug)) return null;
    try {
      return (await this.runner.answer(call, "getProduct", { id: idOrSlug })).envelope
        .data as StorefrontProduct;
    } catch (error) {
      if (error instanceof ApiError && error.code === "NOT_FOUND") return null;
      throw error;
    }
  }

  /** What an identifier names: a product (its featured variant), or one variant of it (by id or SKU). */
  private async resolve(
    call: AdapterCall,
    id: string,
  ): Promise<{ product: StorefrontProduct; variantId?: string } | null> {
    const product = await this.product(call, id);
    if (product) return { product };
    const variant = await this.runner.read(call, (tenant) => variantByIdOrSku(tenant, id));
    const owner = variant && (await this.product(call, variant.productId));
    return owner ? { product: owner, variantId: variant.variantId } : null;
  }

  /** `lookup_catalog`: each id resolved; one product per product named, each variant saying which ids it answers. */
  async lookup(call: AdapterCall, body: Json): Promise<Json> {
    const ids = Array.isArray(body.ids) ? body.ids : [];
    if (
      ids.length === 0 ||
      ids.length > MAX_IDS ||
      !ids.every((id) => typeof id === "string" && id.length <= 200)
    ) {
      throw invalid(`ids must be 1 to ${MAX_IDS} identifiers`);
    }
    const view = await this.view(call);
    const found = new Map<
      string,
      { product: StorefrontProduct; inputs: Map<string, { id: string; match: string }[]> }
    >();
    const messages: Json[] = [];
    for (const id of ids as string[]) {
      const resolved = await this.resolve(call, id);
      if (!resolved) {
        messages.push({
          type: "error",
          code: "not_found",
          content: `No product or variant ${id}`,
          severity: "recoverable",
        });
        continue;
      }
      const { product } = resolved;
      const variantId = resolved.variantId ?? featuredFirst(product.variants)[0]!.id;
      const entry = found.get(product.id) ?? { product, inputs: new Map() };
      const inputs = entry.inputs.get(variantId) ?? [];
      inputs.push({ id, match: resolved.variantId ? "exact" : "featured" });
      entry.inputs.set(variantId, inputs);
      found.set(product.id, entry);
    }
    const products = [...found.values()].flatMap(({ product, inputs }) => {
      const variants = priced(
        product.variants.filter((v) => inputs.has(v.id)),
        obj(body.filters),
      );
      if (variants.length === 0) return [];
      const shown = productOf(product, variants, view);
      shown.variants = (shown.variants as Json[]).map((v) => ({ ...v, inputs: inputs.get(v.id as string) }));
      return [shown];
    });
    return { ucp: ucpOf(CATALOG_LOOKUP), products, ...(messages.length > 0 ? { messages } : {}) };
  }

  /**
   * `get_product`: one product with the variants matching the selection (a variant id selects its
   * own options), the effective selection, and each option value's availability under it.
   */
  async detail(call: AdapterCall, body: Json): Promise<Json | null> {
    const id = str(body.id);
    if (!id || id.length > 200) throw invalid("id must name a product or a variant");
    const resolved = await this.resolve(call, id);
    if (!resolved) return null;
    const { product } = resolved;
    const view = await this.view(call);
    const chosen = resolved.variantId
      ? product.variants.find((v) => v.id === resolved.variantId)!
      : undefined;
    const selected = chosen ? chosen.options : effectiveSelection(product, body);
    const matching = (options: Record<string, string>) =>
      product.variants.filter((v) =>
        Object.entries(options).every(([name, label]) => v.options[name] === label),
      );
    const variants = featuredFirst(matching(selected));
    if (chosen) variants.sort((a, b) => Number(b.id === chosen.id) - Number(a.id === chosen.id));
    const shown = productOf(product, variants.length > 0 ? variants : featuredFirst(product.variants), view);
    shown.selected = Object.entries(selected).map(([name, label]) => ({ name, label }));
    shown.options = product.options.map((option) => ({
      name: option.name,
      values: option.values.map((label) => {
        const alike = matching({ ...selected, [option.name]: label });
        return { label, exists: alike.length > 0, available: alike.some((v) => v.available) };
      }),
    }));
    return { ucp: ucpOf(CATALOG_LOOKUP), product: shown };
  }
}

/**
 * The selection a request asks for, relaxed until some variant matches: options dropped from the
 * end of `preferences` (else from the end of `selected`) first; none selected, the featured variant's.
 */
function effectiveSelection(product: StorefrontProduct, body: Json): Record<string, string> {
  const asked = (Array.isArray(body.selected) ? body.selected : []).map(obj);
  let selection: Record<string, string> = {};
  for (const option of asked) {
    if (typeof option.name === "string" && typeof option.label === "string")
      selection[option.name] = option.label;
  }
  if (Object.keys(selection).length === 0) return featuredFirst(product.variants)[0]?.options ?? {};
  const order = (Array.isArray(body.preferences) ? body.preferences : []).filter(
    (p): p is string => typeof p === "string",
  );
  const dropOrder = [
    ...Object.keys(selection)
      .filter((n) => !order.includes(n))
      .reverse(),
    ...[...order].reverse(),
  ];
  const matches = (s: Record<string, string>) =>
    product.variants.some((v) => Object.entries(s).every(([name, label]) => v.options[name] === label));
  for (const name of dropOrder) {
    if (matches(selection)) break;
    const { [name]: _, ...rest } = selection;
    selection = rest;
  }
  return selection;
}
