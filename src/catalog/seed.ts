import type { Row } from "../db/rows.ts";
import { immediately } from "../db/sqlite.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { slugify } from "../lib/slug.ts";
import { createCategory } from "./categories.ts";
import { createProduct, type VariantInput } from "./products.ts";
import { getStore, type Store, updateStore } from "./store-settings.ts";
import type { categories, Localized, ProductImage, ProductOption, ProductStatus } from "./tables.ts";

// Demo and benchmark catalogs, generated from the word lists below. Everything is derived from
// indexes and a seeded PRNG, so every run builds the same catalog (only the generated ids differ).
// Products are written through `createCategory` / `createProduct`, so they pass the same checks
// and land in the search index exactly like products created through the API.

type Pair = readonly [en: string, pt: string];
/** English, Portuguese, Portuguese gender, and optionally one more category key the product also joins. */
type Noun = readonly [en: string, pt: string, gender: "m" | "f", alsoIn?: string];
/** English, Portuguese masculine, Portuguese feminine. */
type Adjective = readonly [en: string, ptM: string, ptF: string];

interface CategorySpec {
  slug: string;
  name: Pair;
  description?: Pair;
  children?: CategorySpec[];
}

const CATEGORY_TREE: CategorySpec[] = [
  {
    slug: "clothing",
    name: ["Clothing", "Roupa"],
    description: ["Everyday clothes in natural fibres.", "Roupa do dia a dia em fibras naturais."],
    children: [
      {
        slug: "men",
        name: ["Men", "Homem"],
        children: [
          { slug: "men-t-shirts", name: ["T-shirts", "T-shirts"] },
          { slug: "men-sweaters", name: ["Sweaters", "Camisolas"] },
        ],
      },
      {
        slug: "women",
        name: ["Women", "Mulher"],
        children: [
          { slug: "women-dresses", name: ["Dresses", "Vestidos"] },
          { slug: "women-tops", name: ["Tops & Blouses", "Tops e Blusas"] },
        ],
      },
      { slug: "accessories", name: ["Accessories", "Acessórios"] },
    ],
  },
  {
    slug: "home",
    name: ["Home", "Casa"],
    description: ["Things that make a house a home.", "Coisas que fazem de uma casa um lar."],
    children: [
      { slug: "kitchen", name: ["Kitchen", "Cozinha"] },
      { slug: "decor", name: ["Decor", "Decoração"] },
    ],
  },
  {
    slug: "books",
    name: ["Books", "Livros"],
    description: ["Novels in print and as eBooks.", "Romances impressos e em eBook."],
  },
  {
    slug: "food-drink",
    name: ["Food & Drink", "Comida e Bebida"],
    children: [
      { slug: "coffee", name: ["Coffee", "Café"] },
      { slug: "tea", name: ["Tea", "Chá"] },
    ],
  },
];

const CLOTHING_ADJECTIVES: Adjective[] = [
  ["Classic", "Clássico", "Clássica"],
  ["Relaxed", "Descontraído", "Descontraída"],
  ["Slim-fit", "Justo", "Justa"],
  ["Vintage", "Vintage", "Vintage"],
  ["Essential", "Essencial", "Essencial"],
  ["Striped", "às Riscas", "às Riscas"],
  ["Oversized", "Largo", "Larga"],
  ["Lightweight", "Leve", "Leve"],
];
const HOME_ADJECTIVES: Adjective[] = [
  ["Rustic", "Rústico", "Rústica"],
  ["Handmade", "Feito à Mão", "Feita à Mão"],
  ["Speckled", "Salpicado", "Salpicada"],
  ["Minimal", "Minimalista", "Minimalista"],
  ["Nordic", "Nórdico", "Nórdica"],
  ["Hand-painted", "Pintado à Mão", "Pintada à Mão"],
];
const FIBRES: Pair[] = [
  ["Cotton", "de Algodão"],
  ["Organic Cotton", "de Algodão Biológico"],
  ["Linen", "de Linho"],
  ["Jersey", "de Malha"],
  ["Bamboo", "de Bambu"],
];

interface Family {
  category: string;
  sku: string;
  nouns: Noun[];
  adjectives: Adjective[];
  /** Material, origin or format: English word, Portuguese phrase ("de Linho", "da Etiópia"). */
  materials: Pair[];
  /** Appended to both names, one per product in turn (package sizes). */
  suffixes?: string[];
  /** Book titles: "The Silent Garden (Hardcover)" / "O Jardim Silencioso (Capa Dura)". */
  titles?: boolean;
  /** Size × Colour variants for most products. */
  apparel?: boolean;
  price: readonly [min: number, max: number];
  taxRate?: number;
  tags: string[];
  blurbs: Pair[];
}

const FAMILIES: Family[] = [
  {
    category: "men-t-shirts",
    sku: "TSH",
    nouns: [
      ["T-shirt", "T-shirt", "f"],
      ["Polo Shirt", "Polo", "m"],
      ["Henley", "Henley", "f"],
      ["Tank Top", "Camisola de Alças", "f"],
    ],
    adjectives: CLOTHING_ADJECTIVES,
    materials: FIBRES,
    apparel: true,
    price: [1299, 3499],
    tags: ["clothing", "men", "t-shirt"],
    blurbs: [
      ["Soft, breathable and cut for everyday wear.", "Macia, respirável e pensada para o dia a dia."],
      ["Pre-washed so it keeps its shape.", "Pré-lavada para manter a forma."],
    ],
  },
  {
    category: "men-sweaters",
    sku: "SWT",
    nouns: [
      ["Sweater", "Camisola", "f"],
      ["Cardigan", "Casaco de Malha", "m"],
      ["Hoodie", "Hoodie", "m"],
      ["Crewneck", "Camisola de Gola Redonda", "f"],
    ],
    adjectives: CLOTHING_ADJECTIVES,
    materials: [
      ["Merino Wool", "de Lã Merino"],
      ["Wool", "de Lã"],
      ["Cashmere Blend", "de Mistura de Caxemira"],
      ["Brushed Cotton", "de Algodão Escovado"],
    ],
    apparel: true,
    price: [3999, 8999],
    tags: ["clothing", "men", "knitwear"],
    blurbs: [
      ["Warm without the bulk, knitted in Portugal.", "Quente sem volume, tricotada em Portugal."],
      ["A layer you will reach for all winter.", "Uma camada para usar o inverno inteiro."],
    ],
  },
  {
    category: "women-dresses",
    sku: "DRS",
    nouns: [
      ["Midi Dress", "Vestido Midi", "m"],
      ["Maxi Dress", "Vestido Comprido", "m"],
      ["Wrap Dress", "Vestido Traçado", "m"],
      ["Shirt Dress", "Vestido Camiseiro", "m"],
    ],
    adjectives: CLOTHING_ADJECTIVES,
    materials: [
      ["Linen", "de Linho"],
      ["Silk", "de Seda"],
      ["Viscose", "de Viscose"],
      ["Cotton Poplin", "de Popelina de Algodão"],
    ],
    apparel: true,
    price: [2999, 12999],
    tags: ["clothing", "women", "dress"],
    blurbs: [
      ["Flowing fabric with a flattering fit.", "Tecido fluido com um corte elegante."],
      ["From the office to a summer evening.", "Do escritório a uma noite de verão."],
    ],
  },
  {
    category: "women-tops",
    sku: "TOP",
    nouns: [
      ["Blouse", "Blusa", "f"],
      ["Tunic", "Túnica", "f"],
      ["Crop Top", "Top Curto", "m"],
      ["Shirt", "Camisa", "f"],
    ],
    adjectives: CLOTHING_ADJECTIVES,
    materials: [...FIBRES, ["Silk", "de Seda"]],
    apparel: true,
    price: [1999, 5999],
    tags: ["clothing", "women", "top"],
    blurbs: [
      ["Easy to wear, easy to care for.", "Fácil de usar e de tratar."],
      ["Light enough for the warmest days.", "Leve o suficiente para os dias mais quentes."],
    ],
  },
  {
    category: "accessories",
    sku: "ACC",
    nouns: [
      ["Scarf", "Lenço", "m"],
      ["Beanie", "Gorro", "m"],
      ["Tote Bag", "Saco Tote", "m"],
      ["Belt", "Cinto", "m"],
      ["Wallet", "Carteira", "f"],
    ],
    adjectives: CLOTHING_ADJECTIVES,
    materials: [
      ["Wool", "de Lã"],
      ["Cotton", "de Algodão"],
      ["Linen", "de Linho"],
      ["Canvas", "de Lona"],
    ],
    price: [999, 6999],
    tags: ["accessories"],
    blurbs: [
      ["The finishing touch for any outfit.", "O toque final para qualquer visual."],
      ["Made to last and to be used every day.", "Feito para durar e para usar todos os dias."],
    ],
  },
  {
    category: "kitchen",
    sku: "KIT",
    nouns: [
      ["Mug", "Caneca", "f", "coffee"],
      ["Teapot", "Bule", "m", "tea"],
      ["Serving Bowl", "Taça de Servir", "f"],
      ["Cutting Board", "Tábua de Corte", "f"],
      ["Dinner Plate", "Prato Raso", "m"],
    ],
    adjectives: HOME_ADJECTIVES,
    materials: [
      ["Stoneware", "de Grés"],
      ["Ceramic", "de Cerâmica"],
      ["Porcelain", "de Porcelana"],
      ["Olive Wood", "de Madeira de Oliveira"],
    ],
    price: [799, 8999],
    tags: ["home", "kitchen"],
    blurbs: [
      ["Dishwasher safe and made in small batches.", "Pode ir à máquina e é feito em pequenas séries."],
      ["Beautiful on the table, sturdy in the kitchen.", "Bonito na mesa, resistente na cozinha."],
    ],
  },
  {
    category: "decor",
    sku: "DEC",
    nouns: [
      ["Vase", "Jarra", "f"],
      ["Candle Holder", "Castiçal", "m"],
      ["Cushion Cover", "Capa de Almofada", "f"],
      ["Wall Mirror", "Espelho de Parede", "m"],
      ["Throw Blanket", "Manta", "f"],
    ],
    adjectives: HOME_ADJECTIVES,
    materials: [
      ["Ceramic", "de Cerâmica"],
      ["Linen", "de Linho"],
      ["Rattan", "de Vime"],
      ["Brass", "de Latão"],
      ["Terracotta", "de Terracota"],
    ],
    price: [1499, 19999],
    tags: ["home", "decor"],
    blurbs: [
      ["Adds warmth and texture to any room.", "Dá calor e textura a qualquer divisão."],
      ["Designed in Lisbon, crafted by local artisans.", "Desenhado em Lisboa, feito por artesãos locais."],
    ],
  },
  {
    category: "books",
    sku: "BKS",
    titles: true,
    nouns: [
      ["Garden", "Jardim", "m"],
      ["Harbour", "Porto", "m"],
      ["Island", "Ilha", "f"],
      ["Library", "Biblioteca", "f"],
      ["Winter", "Inverno", "m"],
      ["House", "Casa", "f"],
      ["River", "Rio", "m"],
    ],
    adjectives: [
      ["Silent", "Silencioso", "Silenciosa"],
      ["Hidden", "Escondido", "Escondida"],
      ["Lost", "Perdido", "Perdida"],
      ["Forgotten", "Esquecido", "Esquecida"],
      ["Golden", "Dourado", "Dourada"],
      ["Distant", "Distante", "Distante"],
      ["Secret", "Secreto", "Secreta"],
      ["Blue", "Azul", "Azul"],
    ],
    materials: [
      ["Paperback", "Capa Mole"],
      ["Hardcover", "Capa Dura"],
      ["eBook", "eBook"],
    ],
    price: [999, 3499],
    taxRate: 600,
    tags: ["books", "fiction"],
    blurbs: [
      ["A novel about memory, family and the sea.", "Um romance sobre memória, família e o mar."],
      ["A quiet story that stays with you.", "Uma história serena que fica connosco."],
    ],
  },
  {
    category: "coffee",
    sku: "COF",
    nouns: [
      ["Coffee Beans", "Café em Grão", "m"],
      ["Ground Coffee", "Café Moído", "m"],
      ["Espresso Blend", "Lote de Espresso", "m"],
      ["Cold Brew Coffee", "Café Cold Brew", "m"],
    ],
    adjectives: [
      ["Organic", "Biológico", "Biológica"],
      ["Single-origin", "de Origem Única", "de Origem Única"],
      ["Smooth", "Suave", "Suave"],
      ["Fair-trade", "de Comércio Justo", "de Comércio Justo"],
      ["Dark Roast", "de Torra Escura", "de Torra Escura"],
    ],
    materials: [
      ["Ethiopian", "da Etiópia"],
      ["Colombian", "da Colômbia"],
      ["Brazilian", "do Brasil"],
      ["Guatemalan", "da Guatemala"],
      ["Kenyan", "do Quénia"],
    ],
    suffixes: ["250 g", "500 g", "1 kg"],
    price: [599, 2499],
    taxRate: 600,
    tags: ["food", "coffee"],
    blurbs: [
      ["Roasted weekly in Porto in small batches.", "Torrado semanalmente no Porto em pequenos lotes."],
      ["Notes of chocolate, citrus and caramel.", "Notas de chocolate, citrinos e caramelo."],
    ],
  },
  {
    category: "tea",
    sku: "TEA",
    nouns: [
      ["Green Tea", "Chá Verde", "m"],
      ["Black Tea", "Chá Preto", "m"],
      ["Herbal Infusion", "Infusão de Ervas", "f"],
      ["Chai Blend", "Mistura Chai", "f"],
      ["Oolong Tea", "Chá Oolong", "m"],
    ],
    adjectives: [
      ["Organic", "Biológico", "Biológica"],
      ["Loose-leaf", "em Folha", "em Folha"],
      ["Smoky", "Fumado", "Fumada"],
      ["Floral", "Floral", "Floral"],
      ["Ceremonial", "Cerimonial", "Cerimonial"],
    ],
    materials: [
      ["Japanese", "do Japão"],
      ["Darjeeling", "de Darjeeling"],
      ["Azorean", "dos Açores"],
      ["Chinese", "da China"],
      ["Ceylon", "do Sri Lanka"],
    ],
    suffixes: ["50 g", "100 g"],
    price: [399, 1999],
    taxRate: 600,
    tags: ["food", "tea"],
    blurbs: [
      ["Whole leaves, packed fresh in a resealable tin.", "Folhas inteiras, embaladas frescas numa lata."],
      ["Brew at 80 °C for three minutes.", "Infundir a 80 °C durante três minutos."],
    ],
  },
];

const SIZES = ["S", "M", "L", "XL"];
const COLOURS = ["Black", "White", "Navy", "Red", "Olive", "Grey", "Sand", "Burgundy", "Sky Blue"];
const PRICE_ENDINGS = [-1, -1, -5, -51, 0, 37];

/** mulberry32: a tiny deterministic PRNG, plenty for picking demo data. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  /** A whole number from `min` to `max`, both included. */
  return (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
}

/** Text for the store's locales: English and Portuguese where the store has them, English for any other default. */
function localized(store: Store, [en, pt]: Pair): Localized {
  const text: Localized = {};
  if (store.locales.includes("en")) text.en = en;
  if (store.locales.includes("pt")) text.pt = pt;
  text[store.defaultLocale] ??= en;
  return text;
}

/** The category tree, created where a slug is missing; returns category ids by slug. */
function ensureCategories(tenant: TenantDb): Map<string, string> {
  const store = getStore(tenant);
  const ids = new Map<string, string>();
  const find = tenant.sqlite.query("SELECT id FROM categories WHERE slug = ?");
  const visit = (specs: CategorySpec[], parentId: string | null) => {
    specs.forEach((spec, position) => {
      const existing = find.get(spec.slug) as Pick<Row<typeof categories>, "id"> | null;
      const id =
        existing?.id ??
        createCategory(tenant, {
          slug: spec.slug,
          name: localized(store, spec.name),
          description: spec.description ? localized(store, spec.description) : undefined,
          parentId,
          position,
        }).id;
      ids.set(spec.slug, id);
      if (spec.children) visit(spec.children, id);
    });
  };
  visit(CATEGORY_TREE, null);
  return ids;
}

interface Named {
  name: Pair;
  noun: Noun;
  material: Pair;
}

/**
 * The `n`th name of a family. Stepping through the noun × adjective × material grid by a stride
 * coprime to its size gives distinct, well-mixed names until the grid is used up.
 */
function nameOf(family: Family, n: number): Named {
  const { nouns, adjectives, materials } = family;
  const size = nouns.length * adjectives.length * materials.length;
  let stride = 7;
  while (gcd(stride, size) !== 1) stride += 2;
  const cell = (n * stride) % size;
  const noun = nouns[cell % nouns.length]!;
  const adjective = adjectives[Math.floor(cell / nouns.length) % adjectives.length]!;
  const material = materials[Math.floor(cell / (nouns.length * adjectives.length))]!;
  const [nounEn, nounPt, gender] = noun;
  const adjectivePt = gender === "m" ? adjective[1] : adjective[2];
  const suffix = family.suffixes ? ` ${family.suffixes[n % family.suffixes.length]}` : "";
  if (family.titles) {
    const article = gender === "m" ? "O" : "A";
    return {
      name: [
        `The ${adjective[0]} ${nounEn} (${material[0]})`,
        `${article} ${nounPt} ${adjectivePt} (${material[1]})`,
      ],
      noun,
      material,
    };
  }
  return {
    name: [
      `${adjective[0]} ${material[0]} ${nounEn}${suffix}`,
      `${nounPt} ${adjectivePt} ${material[1]}${suffix}`,
    ],
    noun,
    material,
  };
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

const code = (value: string) => value.toUpperCase().replace(/[^A-Z0-9]+/g, "");

function priceIn(random: (min: number, max: number) => number, [min, max]: readonly [number, number]) {
  const euros = random(Math.ceil(min / 100), Math.floor(max / 100));
  const ending = PRICE_ENDINGS[random(0, PRICE_ENDINGS.length - 1)]!;
  return Math.min(max, Math.max(min, euros * 100 + ending));
}

/** A was-price about 30 % above `price`, ending in 99. */
const wasPrice = (price: number) => Math.round((price * 1.3) / 100) * 100 + 99;

const PER_FAMILY = 20;

/**
 * The demo store a first-time user sees: Portuguese/English settings with EU VAT rates, a
 * 15-category tree three levels deep, and 200 products (20 per leaf category) with variants,
 * stock levels, sale prices, drafts and one archived product. Stock starts above the low-stock
 * threshold except where a state is shown on purpose: sold-out and backorder products (0 units),
 * untracked books, and one kitchen product with 2 units left. Their images are the shop's own media,
 * drawn by the media module's demo data (src/media/seed.ts), which runs next.
 */
export function seedDemoCatalog(tenant: TenantDb): void {
  immediately(tenant.sqlite, () => {
    const demo: DemoCatalog = {
      store: updateStore(tenant, {
        name: "Demo Store",
        currency: "EUR",
        country: "PT",
        locales: ["en", "pt"],
        defaultLocale: "en",
        pricesIncludeTax: true,
        taxRates: [
          { country: "PT", rate: 2300 },
          { country: "ES", rate: 2100 },
          { country: "FR", rate: 2000 },
          { country: "DE", rate: 1900 },
        ],
        contactEmail: "hello@demo-store.example",
        manualPaymentMethods: ["bank_transfer"],
        lowStockThreshold: 5,
      }),
      categoryIds: ensureCategories(tenant),
      random: prng(20_240_601),
      slugs: new Set<string>(),
    };
    // Families interleaved, so the newest-first storefront listing mixes categories.
    for (let i = 0; i < PER_FAMILY; i++) {
      FAMILIES.forEach((family, f) => {
        createProduct(tenant, demoProduct(demo, family, f, i));
      });
    }
  });
}

/** What the demo products are made with: the store, its categories, the PRNG, the slugs taken. */
interface DemoCatalog {
  store: Store;
  categoryIds: Map<string, string>;
  random: (min: number, max: number) => number;
  slugs: Set<string>;
}

/**
 * The `i`th demo product of family number `f`. Every value comes from `i`, `f` and the PRNG, which
 * is drawn in a fixed order (the price, then each tracked variant's stock), so the catalog is the
 * same on every run.
 */
function demoProduct(demo: DemoCatalog, family: Family, f: number, i: number) {
  const { store } = demo;
  const { name, noun, material } = nameOf(family, i);
  let slug = slugify(name[0], 100, "product");
  for (let n = 2; demo.slugs.has(slug); n++) slug = `${slugify(name[0], 96, "product")}-${n}`;
  demo.slugs.add(slug);

  const price = priceIn(demo.random, family.price);
  const compareAtPrice = i % 6 === 2 ? wasPrice(price) : null;
  const ebook = family.titles === true && material[0] === "eBook";
  const printOnDemand = family.titles === true && !ebook && i % 2 === 0;
  const stock = demoStock(demo, family, i, !ebook && !printOnDemand);
  const { options, variants } = demoVariants(family, f, i, { price, compareAtPrice }, stock);

  const tags = [...family.tags, slugify(material[0], 50, "material")];
  if (compareAtPrice) tags.push("sale");
  if (i < 2) tags.push("new");
  if (ebook) tags.push("digital");
  if (printOnDemand) tags.push("print-on-demand");
  const alsoIn = noun[3];
  const blurb = family.blurbs[i % family.blurbs.length]!;
  const g = i * FAMILIES.length + f;
  const status: ProductStatus = g === 123 ? "archived" : g % 41 === 17 ? "draft" : "active";
  return {
    slug,
    status,
    name: localized(store, name),
    description: localized(store, [`${name[0]}. ${blurb[0]}`, `${name[1]}. ${blurb[1]}`]),
    categoryIds: [family.category, ...(alsoIn ? [alsoIn] : [])].map((c) => demo.categoryIds.get(c)!),
    tags,
    options,
    taxRate: family.taxRate ?? null,
    requiresShipping: !ebook,
    variants,
  };
}

/**
 * The stock of each variant of a demo product, drawn when called: untracked for eBooks and
 * print-on-demand, 0 units for the sold-out and backorder showcases, else above the threshold.
 */
function demoStock(
  demo: DemoCatalog,
  family: Family,
  i: number,
  tracked: boolean,
): () => VariantInput["inventory"] {
  const outOfStock = i % 9 === 4;
  const backorder = (family.category === "coffee" || family.category === "decor") && i % 10 === 3;
  // The one deliberate showcase of a product running low (the storefront's `lowStock`).
  const fewLeft = family.category === "kitchen" && i === 0;
  return () => {
    if (!tracked) return { tracked: false };
    if (outOfStock || backorder) return { onHand: 0, allowBackorder: backorder };
    // Any other stock starts above the low-stock threshold: a fresh demo raises no false alarm.
    const onHand = demo.random(demo.store.lowStockThreshold + 1, 40);
    return { onHand: fewLeft ? 2 : onHand };
  };
}

/** A single variant, or for most apparel Size × three Colours (XL costs 2 € more). */
function demoVariants(
  family: Family,
  f: number,
  i: number,
  { price, compareAtPrice }: { price: number; compareAtPrice: number | null },
  stock: () => VariantInput["inventory"],
): { options: ProductOption[]; variants: VariantInput[] } {
  const sku = `${family.sku}-${String(i + 1).padStart(3, "0")}`;
  if (!family.apparel || i % 4 === 3) {
    return { options: [], variants: [{ sku, price, compareAtPrice, inventory: stock() }] };
  }
  const colours = [0, 3, 6].map((k) => COLOURS[(i + f + k) % COLOURS.length]!);
  return {
    options: [
      { name: "Size", values: SIZES },
      { name: "Colour", values: colours },
    ],
    variants: colours.flatMap((colour) =>
      SIZES.map((size) => ({
        sku: `${sku}-${code(colour)}-${size}`,
        options: { Size: size, Colour: colour },
        price: size === "XL" ? price + 200 : price,
        compareAtPrice: compareAtPrice && (size === "XL" ? compareAtPrice + 200 : compareAtPrice),
        inventory: stock(),
      })),
    ),
  };
}

/** The `n`th product's picture: one of the shop's own image addresses in turn, or none. */
const imageOf = (urls: readonly string[], n: number, alt: string): ProductImage[] =>
  urls.length ? [{ url: urls[n % urls.length]!, alt }] : [];

/**
 * Benchmark data: `count` more products (a fifth of them with 2 colours × 3 sizes, the rest single
 * variants) over the demo category tree, which is created where missing. Names, slugs and SKUs
 * carry a running number, so the function can be called again on the same tenant. Commits every
 * `batch` products. Each product shows one of `imageUrls` (addresses of the shop's own media).
 */
export function seedProducts(
  tenant: TenantDb,
  count: number,
  options: { batch?: number; imageUrls?: readonly string[] } = {},
): { created: number; ms: number } {
  const batch = Math.max(1, options.batch ?? 1000);
  const started = performance.now();
  const store = getStore(tenant);
  // Each transaction reads before it writes (existing categories, slug and SKU checks), so it takes
  // the write lock up front (BEGIN IMMEDIATE): a deferred one would fail with SQLITE_BUSY_SNAPSHOT
  // instead of waiting (busy_timeout) when the server commits to this file in between.
  const categoryIds = immediately(tenant.sqlite, () => ensureCategories(tenant));
  const { seq: start } = (tenant.sqlite
    .query("SELECT seq FROM sqlite_sequence WHERE name = 'products'")
    .get() as { seq: number } | null) ?? { seq: 0 };
  const random = prng(start + 1);

  let created = 0;
  while (created < count) {
    const end = Math.min(count, created + batch);
    immediately(tenant.sqlite, () => {
      for (; created < end; created++) {
        const n = start + created + 1;
        const family = FAMILIES[n % FAMILIES.length]!;
        const { name, material } = nameOf(family, Math.floor(n / FAMILIES.length));
        const slug = `${slugify(name[0], 90, "product")}-${n}`;
        const sku = `${family.sku}-B${n}`;
        const price = priceIn(random, family.price);
        const inventory = family.titles ? { tracked: false } : { onHand: random(0, 60) };
        const sized = family.apparel && n % 2 === 0;
        const colours = [COLOURS[n % COLOURS.length]!, COLOURS[(n + 4) % COLOURS.length]!];
        const blurb = family.blurbs[n % family.blurbs.length]!;
        createProduct(tenant, {
          slug,
          name: localized(store, name),
          description: localized(store, [`${name[0]}. ${blurb[0]}`, `${name[1]}. ${blurb[1]}`]),
          categoryIds: [categoryIds.get(family.category)!],
          tags: [...family.tags, slugify(material[0], 50, "material")],
          images: imageOf(options.imageUrls ?? [], n, name[0]),
          taxRate: family.taxRate ?? null,
          options: sized
            ? [
                { name: "Colour", values: colours },
                { name: "Size", values: ["S", "M", "L"] },
              ]
            : [],
          variants: sized
            ? colours.flatMap((colour) =>
                ["S", "M", "L"].map((size) => ({
                  sku: `${sku}-${code(colour)}-${size}`,
                  options: { Colour: colour, Size: size },
                  price,
                  inventory,
                })),
              )
            : [{ sku, price, inventory }],
        });
      }
    });
  }
  return { created, ms: Math.round(performance.now() - started) };
}
