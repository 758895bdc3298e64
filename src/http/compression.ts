import { brotliCompress, brotliCompressSync, constants, gzip, zstdCompress } from "node:zlib";

// Response compression: gzip, Brotli and zstd, chosen from the client's `Accept-Encoding`.
// Settings favour speed: a kept body is compressed once per rendering, and a catalog write
// (any tenant write, in fact) drops the kept bodies, so even "once" happens often on a busy store.

export type Encoding = "br" | "zstd" | "gzip";

/** Bodies below this many bytes go out as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

const GZIP_LEVEL = 6;
const BROTLI_QUALITY = 5;
const ZSTD_LEVEL = 3;
const brotliOptions = (bytes: Uint8Array) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
  },
});

const compressors: Record<Encoding, (bytes: Uint8Array) => Uint8Array> = {
  gzip: (bytes) => Bun.gzipSync(bytes as Uint8Array<ArrayBuffer>, { level: GZIP_LEVEL }),
  br: (bytes) => brotliCompressSync(bytes, brotliOptions(bytes)),
  zstd: (bytes) => Bun.zstdCompressSync(bytes, { level: ZSTD_LEVEL }),
};

/** Compresses on the calling thread: for a body rendered for one request. */
export function compress(encoding: Encoding, bytes: Uint8Array): Uint8Array {
  return compressors[encoding](bytes);
}

type Callback = (error: Error | null, result: Uint8Array) => void;
const backgroundCompressors: Record<Encoding, (bytes: Uint8Array, done: Callback) => void> = {
  gzip: (bytes, done) => gzip(bytes, { level: GZIP_LEVEL }, done),
  br: (bytes, done) => brotliCompress(bytes, brotliOptions(bytes), done),
  zstd: (bytes, done) =>
    zstdCompress(bytes, { params: { [constants.ZSTD_c_compressionLevel]: ZSTD_LEVEL } }, done),
};

/**
 * Compresses on zlib's worker threads: for a body kept and sent many times, which may be large
 * (the API reference viewer is over 4 MB, about a second of Brotli) and must not stall the event loop.
 */
export function compressInBackground(encoding: Encoding, bytes: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) =>
    backgroundCompressors[encoding](bytes, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

/**
 * Which encoding to prefer among those a client accepts with the same q-value. A kept body is
 * compressed once and sent many times, so the smallest output wins (Brotli); a body rendered for
 * one request is compressed on the request, so the cheapest good one wins (zstd, then gzip).
 */
export const KEPT_PREFERENCE: readonly Encoding[] = ["br", "zstd", "gzip"];
export const FRESH_PREFERENCE: readonly Encoding[] = ["zstd", "gzip", "br"];

/**
 * The coding → q-value pairs of an `Accept-Encoding` header (RFC 9110 §12.5.3), lower-cased;
 * an entry with an unreadable q-value is left out.
 */
function parseAcceptEncoding(header: string): Map<string, number> {
  const accepted = new Map<string, number>();
  for (const entry of header.split(",")) {
    const [coding = "", ...params] = entry.split(";");
    const name = coding.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key = "", value = ""] = param.split("=");
      if (key.trim().toLowerCase() === "q")
        q = /^\s*(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/.test(value) ? Number(value) : Number.NaN;
    }
    if (!Number.isNaN(q)) accepted.set(name, q);
  }
  return accepted;
}

/**
 * The encoding to send for an `Accept-Encoding` header, or null for the body as it is: the
 * highest q-value wins (`*` stands for any coding not listed), ties go by `preference`, and an
 * `identity` listed with a higher q-value than every coding keeps the body uncompressed.
 */
export function chooseEncoding(header: string, preference: readonly Encoding[]): Encoding | null {
  const accepted = parseAcceptEncoding(header);
  const any = accepted.get("*");
  let best: Encoding | null = null;
  let bestQ = 0;
  for (const encoding of preference) {
    const q = accepted.get(encoding) ?? any ?? 0;
    if (q > bestQ) {
      best = encoding;
      bestQ = q;
    }
  }
  const identity = accepted.get("identity");
  return identity !== undefined && identity > bestQ ? null : best;
}

// Clients send a handful of distinct headers (each browser the same one), so the choice is
// remembered per header text; the bound keeps random headers from growing it.
const NEGOTIATED_MAX = 256;
const negotiated = new Map<readonly Encoding[], Map<string, Encoding | null>>();

/** `chooseEncoding` for a request's header (absent: no compression), remembered per header text. */
export function negotiate(header: string | null, preference: readonly Encoding[]): Encoding | null {
  if (header === null) return null;
  let known = negotiated.get(preference);
  if (!known) {
    known = new Map();
    negotiated.set(preference, known);
  }
  let encoding = known.get(header);
  if (encoding === undefined) {
    encoding = chooseEncoding(header, preference);
    if (known.size >= NEGOTIATED_MAX) known.clear();
    known.set(header, encoding);
  }
  return encoding;
}
