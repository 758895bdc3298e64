/** `%term%` for `LIKE … ESCAPE '\'`: the term's own `%`, `_` and `\` match literally. */
export const likeContains = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
