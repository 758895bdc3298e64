import { easypayProvider } from "./easypay.ts";
import { ifthenpayProvider } from "./ifthenpay.ts";
import type { PaymentProvider } from "./provider.ts";
import { stripeProvider } from "./stripe.ts";
import type { Provider } from "./tables.ts";

// Every provider, by name: adding one is its file (a `PaymentProvider`) and its line here. Kept
// apart from provider.ts (the shape) because the providers' files import that shape, and imports
// never go round in a circle.

/** In the order that also decides which one wins a method two providers take (after the source). */
const REGISTERED: PaymentProvider[] = [stripeProvider, ifthenpayProvider, easypayProvider];

/**
 * Registers a provider kept outside this folder (before the service starts): the same as a line
 * in `REGISTERED`, after those. Answers what takes it out again (a provider's own tests).
 */
export function registerPaymentProvider(provider: PaymentProvider): () => void {
  if (REGISTERED.some((known) => known.name === provider.name)) {
    throw new Error(`a payment provider named ${provider.name} is already registered`);
  }
  REGISTERED.push(provider);
  return () => {
    REGISTERED.splice(REGISTERED.indexOf(provider), 1);
  };
}

export function providerOf(name: Provider): PaymentProvider {
  const provider = REGISTERED.find((known) => known.name === name);
  if (!provider) throw new Error(`no payment provider named ${name}`);
  return provider;
}

export const allProviders = (): readonly PaymentProvider[] => REGISTERED;
