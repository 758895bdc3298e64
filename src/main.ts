// Entry of the compiled executable: `commerce` serves, `commerce <command>` runs the CLI.
import { runCli } from "./cli.ts";
import { main } from "./server.ts";

// Anything but no argument or `serve` is a CLI command: an unknown one prints the usage and exits 2.
const command = process.argv[2];
if (command !== undefined && command !== "serve") {
  process.exit(await runCli(process.argv.slice(2)));
} else {
  await main();
}
