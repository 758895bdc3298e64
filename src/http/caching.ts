import type { FileReply } from "../core/operation.ts";
import { answeredLate, chunked } from "../lib/late-answers.ts";
import {
  COMPRESS_MIN_BYTES,
  compressInBackground,
  type Encoding,
  KEPT_PREFERENCE,
  negotiate,
} from "./compression.ts";

// Conditional GETs and the per-kind Cache-Control (docs/api-conventions.md, "Caching").

/** Catalog reads: a cache may keep them but asks each time (`If-None-Match`, answered 304 when unchanged). */
export const REVALIDATE = "no-cache";
/** Carts, orders, accounts, admin and every other answer: nothing keeps them. */
export const NO_STORE = "no-store";

const encoder = new TextEncoder();

/**
 * A body sent many times as it is: the OpenAPI document, the docs assets, a kept catalog read.
 * Its strong ETag and each compressed form are computed once, on first use, and kept with it;
 * so are the response headers of each form.
 */
export class Representation {
  private encodedBody: Uint8Array | undefined;
  /**
   * The bytes as a Blob, which a Response takes without copying them (a Uint8Array is copied into
   * each one: 2 µs for 20 KB, a tenth of a kept read).
   */
  private blob: Blob | undefined;
  private tag: string | undefined;
  /** Each compressed form, or its compression under way (requests meanwhile wait for the same one). */
  private readonly encoded = new Map<Encoding, Blob | Promise<Blob>>();
  /** Response headers by encoding, and for a 304 (which carries no content headers). */
  private readonly headerSets = new Map<string, Record<string, string>>();

  /**
   * `body`: a function gives it on first use, for a large body most processes never send (the API
   * viewer). `headers`: the content type, Cache-Control, Vary and any others every answer carries.
   */
  constructor(
    private readonly body: string | Uint8Array | (() => Uint8Array),
    private readonly headers: Record<string, string>,
  ) {}

  /** The body as bytes, encoded on first use (an app builds several documents it may never serve). */
  get bytes(): Uint8Array {
    this.encodedBody ??=
      typeof this.body === "function"
        ? this.body()
        : typeof this.body === "string"
          ? encoder.encode(this.body)
          : this.body;
    return this.encodedBody;
  }

  /** The opaque part of the ETag: a SHA-256 of the bytes (each encoding adds its suffix). */
  private get hash(): string {
    this.tag ??= new Bun.CryptoHasher("sha256").update(this.bytes).digest("base64url").slice(0, 27);
    return this.tag;
  }

  /**
   * A strong ETag names one representation, so each content coding has its own
   * (`"<hash>"`, `"<hash>-br"`, …); any of them revalidates the body (`matches`).
   */
  etag(encoding: Encoding | null): string {
    return encoding ? `"${this.hash}-${encoding}"` : `"${this.hash}"`;
  }

  /** Whether an `If-None-Match` header names this body (in any encoding), or is `*`. */
  matches(ifNoneMatch: string): boolean {
    const hash = this.hash;
    for (const raw of ifNoneMatch.split(",")) {
      const tag = raw.trim().replace(/^W\//, "");
      if (tag === "*") return true;
      if (tag.startsWith(`"${hash}`) && (tag.length === hash.length + 2 || tag[hash.length + 1] === "-")) {
        return true;
      }
    }
    return false;
  }

  /** The answer to `request`: 304 when its `If-None-Match` names this body, else the body, compressed when accepted. */
  respond(request: Request, status = 200): Response | Promise<Response> {
    const encoding =
      this.bytes.length >= COMPRESS_MIN_BYTES
        ? negotiate(request.headers.get("accept-encoding"), KEPT_PREFERENCE)
        : null;
    const ifNoneMatch = request.headers.get("if-none-match");
    if (ifNoneMatch !== null && status === 200 && this.matches(ifNoneMatch)) {
      return new Response(null, { status: 304, headers: this.headersFor(encoding, true) });
    }
    const headers = this.headersFor(encoding, false);
    const body = encoding
      ? this.encodedAs(encoding)
      : answeredLate(request, this.bytes.length)
        ? chunked(this.bytes)
        : this.identity();
    if (body instanceof Promise) return body.then((blob) => new Response(blob, { status, headers }));
    return new Response(body, { status, headers });
  }

  private identity(): Blob {
    this.blob ??= new Blob([this.bytes]);
    return this.blob;
  }

  private encodedAs(encoding: Encoding): Blob | Promise<Blob> {
    let kept = this.encoded.get(encoding);
    if (!kept) {
      kept = compressInBackground(encoding, this.bytes).then(
        (bytes) => {
          const blob = new Blob([bytes]);
          this.encoded.set(encoding, blob);
          return blob;
        },
        (error: unknown) => {
          this.encoded.delete(encoding); // the next request tries again
          throw error;
        },
      );
      this.encoded.set(encoding, kept);
    }
    return kept;
  }

  private headersFor(encoding: Encoding | null, notModified: boolean): Record<string, string> {
    const key = `${encoding} ${notModified}`;
    let headers = this.headerSets.get(key);
    if (!headers) {
      headers = { ...this.headers, etag: this.etag(encoding) };
      if (notModified) delete headers["content-type"];
      else if (encoding) headers["content-encoding"] = encoding;
      this.headerSets.set(key, headers);
    }
    return headers;
  }
}

/** Whether an `If-None-Match` header names `etag` (a strong tag, quoted), or is `*`. */
const namesTag = (ifNoneMatch: string, etag: string) =>
  ifNoneMatch.split(",").some((raw) => {
    const tag = raw.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });

// A stored file is shown, never run: no sniffing it into another type, and if it is opened as a
// document nothing in it may load, run or reach anything (docs/media.md). Origins the shop lists may
// read it from scripts (CORS headers), so a cache keeps one copy per `Origin`.
const FILE_HEADERS = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; sandbox",
  vary: "Origin",
};

/**
 * A stored file (media): its bytes as they are (images are compressed already), its strong ETag,
 * kept a year by the caches `file.shared` allows (its URL never names other bytes), 304 when
 * `If-None-Match` names it.
 */
export function fileResponse(file: FileReply, request: Request): Response {
  const headers = {
    ...FILE_HEADERS,
    etag: file.etag,
    "cache-control": `${file.shared ? "public" : "private"}, max-age=31536000, immutable`,
  };
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch !== null && namesTag(ifNoneMatch, file.etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(file.bytes, { status: 200, headers: { ...headers, "content-type": file.contentType } });
}
