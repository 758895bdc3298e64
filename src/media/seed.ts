import { updateProduct } from "../catalog/products.ts";
import { getStore } from "../catalog/store-settings.ts";
import type { Localized } from "../catalog/tables.ts";
import { uploadedFile } from "../core/body.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { mediaUrl, storeMedia } from "./media.ts";
import { encodePng } from "./png.ts";

// The demo store's product images, drawn here and stored as its media: nothing is fetched from the
// internet. Each picture is a colour in one of three patterns; products share them, as real
// products share a shop's images.

type Rgb = readonly [number, number, number];

const SIZE = 256;

const COLOURS: Rgb[] = [
  [196, 69, 54],
  [47, 110, 186],
  [66, 140, 90],
  [222, 170, 60],
  [120, 84, 160],
  [40, 40, 48],
  [214, 120, 150],
  [92, 150, 160],
];

/** Whether a pixel is drawn in the colour (else in its pale tint): one pattern per view of a product. */
const PATTERNS: ((x: number, y: number) => boolean)[] = [
  (x, y) => (x - SIZE / 2) ** 2 + (y - SIZE / 2) ** 2 < (SIZE * 0.3) ** 2, // a disc
  (x) => Math.floor(x / 32) % 2 === 0, // stripes
  (x, y) => (Math.floor(x / 32) + Math.floor(y / 32)) % 2 === 0, // checks
];

/** What each view's alt text adds to the product's name. */
const VIEWS = ["", " (detail)", " (in use)"];

const tint = (colour: Rgb): Rgb =>
  [0, 1, 2].map((i) => Math.round(colour[i]! + (255 - colour[i]!) * 0.8)) as never;

/**
 * The demo pictures' addresses, by colour then pattern: each is drawn and stored as the shop's media
 * unless the shop already holds the same bytes, so running this again adds nothing.
 */
export function demoImageUrls(tenant: TenantDb): string[][] {
  const stored = tenant.sqlite.query("SELECT id FROM media WHERE sha256 = ? LIMIT 1");
  return COLOURS.map((colour) =>
    PATTERNS.map((inColour) => {
      const pale = tint(colour);
      const png = uploadedFile(
        encodePng(SIZE, SIZE, (x, y) => (inColour(x, y) ? colour : pale)),
        "image/png",
      );
      const existing = stored.get(png.sha256) as { id: string } | null;
      return existing ? mediaUrl(existing.id) : storeMedia(tenant, png, Number.POSITIVE_INFINITY).url;
    }),
  );
}

/**
 * Gives every demo product one to three of the demo pictures (a colour per product, a pattern per
 * view), with its name as the alt text. Runs after the catalog's demo data.
 */
export function seedDemoMedia(tenant: TenantDb): void {
  const urls = demoImageUrls(tenant);
  const locale = getStore(tenant).defaultLocale;
  const products = tenant.sqlite.query("SELECT id, name FROM products ORDER BY seq").all() as {
    id: string;
    name: string;
  }[];
  products.forEach(({ id, name }, i) => {
    const title = (JSON.parse(name) as Localized)[locale] ?? "";
    const views = VIEWS.slice(0, 1 + (i % VIEWS.length));
    const images = views.map((view, v) => ({ url: urls[i % COLOURS.length]![v]!, alt: `${title}${view}` }));
    updateProduct(tenant, id, { images });
  });
}
