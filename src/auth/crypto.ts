import { createHash } from "node:crypto";
import { randomBase62 } from "../lib/ids.ts";

export const sha256Hex = (text: string): string => createHash("sha256").update(text).digest("hex");

/** An opaque bearer secret of 256 bits. */
export const newToken = (prefix = ""): string => `${prefix}${randomBase62(43)}`;
