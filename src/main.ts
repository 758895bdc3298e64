// Entry of the compiled executable: `commerce` serves, `commerce <command>` runs the CLI.
import { CLI_COMMANDS, runCli } from "./cli.ts";
import { main } from "./server.ts";

const command = process.argv[2];
if (command !== undefined && command !== "serve" && CLI_COMMANDS.has(command)) {
  process.exit(await runCli(process.argv.slice(2)));
} else {
  await main();
}
