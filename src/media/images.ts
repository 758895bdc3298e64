// What an uploaded file is, read from its first bytes (its "magic number"), never from the name or
// the type a client declared, and its size in pixels from its headers. Only the five image types a
// browser shows everywhere are accepted; SVG is not (it is a document that can carry scripts).

export const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/avif", "image/gif"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

interface Size {
  width: number;
  height: number;
}

/** An accepted image: its type, and its size when its headers tell it. */
export interface ImageInfo extends Partial<Size> {
  contentType: ImageType;
}

/** Bytes as a view for reading numbers, plus the bytes themselves. */
interface Bytes {
  bytes: Uint8Array;
  data: DataView;
}

const hasText = ({ bytes }: Bytes, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((char, i) => bytes[at + i] === char.charCodeAt(0));

const textAt = ({ bytes }: Bytes, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

const u24le = ({ bytes }: Bytes, at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);

/** PNG: the first chunk is IHDR, whose data starts with the width and the height (big-endian). */
function pngSize(file: Bytes): Size | undefined {
  if (!hasText(file, 12, "IHDR") || file.bytes.length < 24) return undefined;
  return { width: file.data.getUint32(16), height: file.data.getUint32(20) };
}

/** GIF: the logical screen descriptor right after the signature (little-endian). */
function gifSize(file: Bytes): Size | undefined {
  if (file.bytes.length < 10) return undefined;
  return { width: file.data.getUint16(6, true), height: file.data.getUint16(8, true) };
}

/** Start-of-frame markers (SOF0–SOF15), except DHT (C4), JPG (C8) and DAC (CC), which share the range. */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** JPEG: walks the segments after SOI to the start of frame: precision, then height and width. */
function jpegSize({ bytes, data }: Bytes): Size | undefined {
  let at = 2;
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff)
      at += 1; // fill byte
    else if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8))
      at += 2; // markers without a length
    else if (isStartOfFrame(marker)) return { height: data.getUint16(at + 5), width: data.getUint16(at + 7) };
    else if (marker === 0xd9 || marker === 0xda)
      return undefined; // the image ended or its data began
    else at += 2 + data.getUint16(at + 2);
  }
  return undefined;
}

/** WebP: the first chunk is lossy (`VP8 `), lossless (`VP8L`) or extended (`VP8X`, canvas size). */
function webpSize(file: Bytes): Size | undefined {
  const { bytes, data } = file;
  const kind = textAt(file, 12);
  if (kind === "VP8 " && bytes.length >= 30) {
    return { width: data.getUint16(26, true) & 0x3fff, height: data.getUint16(28, true) & 0x3fff };
  }
  if (kind === "VP8L" && bytes.length >= 25) {
    const bits = data.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (kind === "VP8X" && bytes.length >= 30)
    return { width: u24le(file, 24) + 1, height: u24le(file, 27) + 1 };
  return undefined;
}

interface Box {
  type: string;
  start: number;
  end: number;
}

/** The ISO BMFF boxes between `start` and `end` (AVIF's container); stops at the first malformed one. */
function* boxes(file: Bytes, start: number, end: number): Generator<Box> {
  for (let at = start; at + 8 <= end; ) {
    let size = file.data.getUint32(at);
    let header = 8;
    if (size === 1 && at + 16 <= end) {
      size = Number(file.data.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = end - at; // the box runs to the end
    if (size < header || at + size > end) return;
    yield { type: textAt(file, at + 4), start: at + header, end: at + size };
    at += size;
  }
}

const child = (file: Bytes, parent: { start: number; end: number }, type: string) =>
  [...boxes(file, parent.start, parent.end)].find((box) => box.type === type);

/**
 * AVIF: the image spatial extents (`ispe`) in `meta/iprp/ipco`. A grid image lists its tiles' and
 * its own; the largest is the picture's. Undefined when the file does not say.
 */
function avifSize(file: Bytes): Size | undefined {
  const meta = child(file, { start: 0, end: file.bytes.length }, "meta");
  // `meta` is a full box: version and flags come before its children.
  const iprp = meta && child(file, { start: meta.start + 4, end: meta.end }, "iprp");
  const ipco = iprp && child(file, iprp, "ipco");
  if (!ipco) return undefined;
  let largest: Size | undefined;
  for (const box of boxes(file, ipco.start, ipco.end)) {
    if (box.type !== "ispe" || box.end - box.start < 12) continue;
    const size = { width: file.data.getUint32(box.start + 4), height: file.data.getUint32(box.start + 8) };
    if (!largest || size.width * size.height > largest.width * largest.height) largest = size;
  }
  return largest;
}

/** An AVIF file opens with a `ftyp` box naming the `avif` (still) or `avis` (sequence) brand. */
function isAvif(file: Bytes): boolean {
  if (!hasText(file, 4, "ftyp")) return false;
  const end = Math.min(file.data.getUint32(0), file.bytes.length);
  for (let at = 8; at + 4 <= end; at += 4) {
    if (at === 12) continue; // the minor version, not a brand
    const brand = textAt(file, at);
    if (brand === "avif" || brand === "avis") return true;
  }
  return false;
}

const PNG_SIGNATURE = "\x89PNG\r\n\x1a\n";

/**
 * What the bytes are, by their magic number, with the size their headers give; undefined when
 * they are none of the accepted types, or one of them whose headers cannot be read (a broken file).
 */
export function inspectImage(bytes: Uint8Array): ImageInfo | undefined {
  const file: Bytes = { bytes, data: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
  const known = (contentType: ImageType, size: Size | undefined) =>
    size && size.width > 0 && size.height > 0 ? { contentType, ...size } : undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return known("image/jpeg", jpegSize(file));
  if (hasText(file, 0, PNG_SIGNATURE)) return known("image/png", pngSize(file));
  if (hasText(file, 0, "GIF87a") || hasText(file, 0, "GIF89a")) return known("image/gif", gifSize(file));
  if (hasText(file, 0, "RIFF") && hasText(file, 8, "WEBP")) return known("image/webp", webpSize(file));
  // An AVIF's size is optional to us: some encoders put it where this reader does not look.
  if (file.bytes.length >= 12 && isAvif(file)) return { contentType: "image/avif", ...avifSize(file) };
  return undefined;
}
