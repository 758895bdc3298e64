import { encodePng } from "../../src/media/png.ts";

// Real images of each accepted type, small enough to write inline. The JPEG and the WebP files
// were encoded by Chromium's canvas (the simple WebP forms cut from its extended ones), the AVIF is
// the 2×2 picture browsers' AVIF feature checks use; Chromium decodes each at the size given here.

const fromBase64 = (text: string) => new Uint8Array(Buffer.from(text, "base64"));

/** 24 × 16, baseline, with JFIF and ICC segments before the frame. */
const JPEG = fromBase64(
  "/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAQABgDASIAAhEBAxEB/8QAFwABAAMAAAAAAAAAAAAAAAAAAAMEB//EABcQAQADAAAAAAAAAAAAAAAAAAAEQoH/xAAVAQEBAAAAAAAAAAAAAAAAAAAGBP/EACARAAECBQUAAAAAAAAAAAAAAAEREgACBDFRBQYTFCH/2gAMAwEAAhEDEQA/AM7TxbYsCrUty96mmp+Jrk9ctiDgYhdpm1uhVSVPK5q+NS4IupzAAWhbH//Z",
);
/** 20 × 12, lossy (`VP8 `). */
const WEBP_LOSSY = fromBase64(
  "UklGRnAAAABXRUJQVlA4IGQAAACwAwCdASoUAAwAPm0qkUWkIqGYBABABsSyAFp6CAeSqBrbp6FagAD+8qPU3SPIP/ji/6h/xgW/4N7/rw9+2//FmjS9fBtFVf1T/lRa/1N//3DmTj3f/83sC/h//YO/04ebAAAA",
);
/** 17 × 9, lossless (`VP8L`). */
const WEBP_LOSSLESS = fromBase64("UklGRiwAAABXRUJQVlA4TCAAAAAvEAACAA9wJPCjgB4Mef6DB2TSNq1/0f02CxH9D3J0BA==");
/** 18 × 10, extended (`VP8X`) with an alpha channel. */
const WEBP_EXTENDED = fromBase64(
  "UklGRpoAAABXRUJQVlA4WAoAAAAQAAAAEQAACQAAQUxQSBgAAAABD/DA/4iIoKZtA6aDP+XmK4aI/ofWD79WUDggXAAAAHADAJ0BKhIACgA+bSqSRaQioZgEAEAGxLEAXZeAAOivICUCAAD+8qPXQdssYzf/gnH7w/k3x4Bw/Y+7QcP1tLjA/7D/RySf/SwmIT+6//OaTv/2Dv9UvqTFvgAA",
);
/** 2 × 2. */
const AVIF = fromBase64(
  "AAAAIGZ0eXBhdmlmAAAAAGF2aWZtaWYxbWlhZk1BMUIAAADybWV0YQAAAAAAAAAoaGRscgAAAAAAAAAAcGljdAAAAAAAAAAAAAAAAGxpYmF2aWYAAAAADnBpdG0AAAAAAAEAAAAeaWxvYwAAAABEAAABAAEAAAABAAABGgAAAB0AAAAoaWluZgAAAAAAAQAAABppbmZlAgAAAAABAABhdjAxQ29sb3IAAAAAamlwcnAAAABLaXBjbwAAABRpc3BlAAAAAAAAAAIAAAACAAAAEHBpeGkAAAAAAwgICAAAAAxhdjFDgQ0MAAAAABNjb2xybmNseAACAAIAAYAAAAAXaXBtYQAAAAAAAAABAAEEAQKDBAAAACVtZGF0EgAKCBgANogQEAwgMg8f8D///8WfhwB8+ErK42A=",
);

/**
 * A `width` × `height` GIF of one colour: a two-colour table and LZW codes of 3 bits, kept from
 * growing by a clear code after every two pixels.
 */
export function gif(width: number, height: number): Uint8Array {
  const codes = [4];
  for (let i = 0; i < width * height; i++) codes.push(1, ...(i % 2 === 1 ? [4] : []));
  codes.push(5);
  const packed: number[] = [];
  let bits = 0;
  let count = 0;
  for (const code of codes) {
    bits |= code << count;
    for (count += 3; count >= 8; count -= 8, bits >>= 8) packed.push(bits & 0xff);
  }
  if (count > 0) packed.push(bits & 0xff);
  const blocks: number[] = [];
  for (let i = 0; i < packed.length; i += 255) {
    const block = packed.slice(i, i + 255);
    blocks.push(block.length, ...block);
  }
  const le = (value: number) => [value & 0xff, value >> 8];
  return new Uint8Array([
    ...new TextEncoder().encode("GIF89a"),
    ...le(width),
    ...le(height),
    0x80,
    0,
    0, // a global table of 2 colours
    255,
    255,
    255,
    200,
    40,
    40,
    0x2c,
    0,
    0,
    0,
    0,
    ...le(width),
    ...le(height),
    0, // the image, at 0,0
    2,
    ...blocks,
    0, // LZW minimum code size, data blocks, terminator
    0x3b,
  ]);
}

/** A `width` × `height` PNG of a gradient. */
export const png = (width: number, height: number) =>
  encodePng(width, height, (x, y) => [(x * 40) % 256, (y * 40) % 256, 120]);

/** Each accepted type: a file, the type it is and the size it has. */
export const SAMPLES = [
  { name: "JPEG", bytes: JPEG, contentType: "image/jpeg", width: 24, height: 16 },
  { name: "PNG", bytes: png(7, 5), contentType: "image/png", width: 7, height: 5 },
  { name: "GIF", bytes: gif(13, 7), contentType: "image/gif", width: 13, height: 7 },
  { name: "WebP (lossy)", bytes: WEBP_LOSSY, contentType: "image/webp", width: 20, height: 12 },
  { name: "WebP (lossless)", bytes: WEBP_LOSSLESS, contentType: "image/webp", width: 17, height: 9 },
  { name: "WebP (extended)", bytes: WEBP_EXTENDED, contentType: "image/webp", width: 18, height: 10 },
  { name: "AVIF", bytes: AVIF, contentType: "image/avif", width: 2, height: 2 },
] as const;

/**
 * A PNG of exactly `size` bytes: a small picture with a private ancillary chunk (`paDd`, which
 * decoders skip) filling the rest before IEND.
 */
export function pngOfSize(size: number): Uint8Array {
  const picture = png(4, 4);
  const iend = picture.length - 12;
  const padding = size - picture.length - 12;
  const chunk = new Uint8Array(12 + padding);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, padding);
  chunk.set(new TextEncoder().encode("paDd"), 4);
  view.setUint32(8 + padding, Bun.hash.crc32(chunk.subarray(4, 8 + padding)));
  return Buffer.concat([picture.subarray(0, iend), chunk, picture.subarray(iend)]);
}
