// SQL files imported `with { type: "text" }` (embedded migrations).
declare module "*.sql" {
  const text: string;
  export default text;
}

// The API viewer's browser build, embedded as text (src/http/docs.ts).
declare module "*/standalone.js" {
  const text: string;
  export default text;
}
