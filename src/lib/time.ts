/** Times are stored as epoch milliseconds and sent as ISO 8601 UTC strings. */
export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : iso(ms));
