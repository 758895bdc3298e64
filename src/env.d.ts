// SQL files imported `with { type: "text" }` (embedded migrations).
declare module "*.sql" {
  const text: string;
  export default text;
}

// The API viewer's browser build, embedded as a file: the import is its path (src/http/docs.ts).
declare module "*/standalone.js" {
  const path: string;
  export default path;
}
