// SQL files imported `with { type: "text" }` (embedded migrations).
declare module "*.sql" {
  const text: string;
  export default text;
}
