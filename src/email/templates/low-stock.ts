import type { Localized } from "../../catalog/tables.ts";
import type { Strings } from "../locale.ts";
import { variantName } from "../order-summary.ts";
import { type Fact, facts, paragraph } from "../render.ts";
import { type ShopNoticeData, shopNoticeTemplate } from "../shop-notice.ts";

export interface LowStockData extends ShopNoticeData {
  variant: { productName: Localized; title: string; sku: string | null };
  /** Units left in stock (may be 0 or below, on backorder). */
  stock: number;
  /** The shop's `lowStockThreshold` that the stock fell to. */
  threshold: number;
}

const STRINGS: Strings<{
  subject: (name: string, stock: number) => string;
  title: string;
  body: (threshold: number) => string;
  product: string;
  sku: string;
  stock: string;
}> = {
  en: {
    subject: (name, stock) => `Low stock: ${name} (${stock} left)`,
    title: "Low stock",
    body: (threshold) => `This variant has ${threshold} units or fewer left in stock:`,
    product: "Product",
    sku: "SKU",
    stock: "In stock",
  },
  pt: {
    subject: (name, stock) => `Stock baixo: ${name} (restam ${stock})`,
    title: "Stock baixo",
    body: (threshold) => `Esta variante tem ${threshold} unidades ou menos em stock:`,
    product: "Produto",
    sku: "SKU",
    stock: "Em stock",
  },
};

/** To the shop, when a variant's stock falls to the shop's low-stock threshold. */
export const lowStock = shopNoticeTemplate<LowStockData>(({ variant, stock, threshold }, l) => {
  const t = STRINGS[l.lang];
  const name = variantName(variant.productName, variant.title, l);
  const rows: Fact[] = [{ label: t.product, value: name }];
  if (variant.sku) rows.push({ label: t.sku, value: variant.sku });
  rows.push({ label: t.stock, value: String(stock), strong: true });
  return {
    subject: t.subject(name, stock),
    title: t.title,
    blocks: [paragraph(t.body(threshold)), facts(rows)],
  };
});
