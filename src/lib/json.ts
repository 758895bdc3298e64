/** A nullable JSON column: its parsed value, or null. */
export const parseJsonOrNull = <T>(text: string | null): T | null =>
  text === null ? null : (JSON.parse(text) as T);
