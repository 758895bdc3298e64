import { createHash } from "node:crypto";
import { availableParallelism } from "node:os";
import type { AuthLimitsConfig } from "../config.ts";
import { ConcurrencyLimiter } from "../core/rate-limit.ts";
import { randomBase62 } from "../lib/ids.ts";

export const sha256Hex = (text: string): string => createHash("sha256").update(text).digest("hex");

/** An opaque bearer secret of 256 bits. */
export const newToken = (prefix = ""): string => `${prefix}${randomBase62(43)}`;

/**
 * Every argon2id hash and check of the process (dashboard users, storefront customers, the agent
 * approval page, the CLI) runs through this one limiter: each costs tens of milliseconds of a
 * core, so a burst of sign-ins must not take every core from the rest of the service. It is per
 * process because the CPU is; `configurePasswordHashing` sizes it from the configuration.
 */
export const passwordHashing = new ConcurrencyLimiter(
  availableParallelism(),
  100,
  "Too many password checks at once; retry shortly",
);

export function configurePasswordHashing(limits: AuthLimitsConfig): void {
  passwordHashing.configure(limits.passwordHashConcurrency, limits.passwordHashQueue);
}

export const hashPassword = (password: string): Promise<string> =>
  passwordHashing.run(() => Bun.password.hash(password, { algorithm: "argon2id" }));

export const passwordMatches = (password: string, hash: string): Promise<boolean> =>
  passwordHashing.run(() => Bun.password.verify(password, hash));

// Checked against when an email is unknown, so a miss costs as long as a wrong password. Made once,
// under the cap like any hash; a refused attempt (queue full) leaves it to the next caller.
let decoyHash: Promise<string> | undefined;

/** Spends the time of one password check and answers false (for an email with no password). */
export async function decoyPasswordCheck(password: string): Promise<false> {
  decoyHash ??= hashPassword("decoy password").catch((error: unknown) => {
    decoyHash = undefined;
    throw error;
  });
  await passwordMatches(password, await decoyHash);
  return false;
}
