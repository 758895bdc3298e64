import { easypayProvider } from "./easypay.ts";
import { ifthenpayProvider } from "./ifthenpay.ts";
import type { PaymentProvider } from "./provider.ts";
import { stripeProvider } from "./stripe.ts";
import { PROVIDERS, type Provider } from "./tables.ts";

// Every provider by name. Kept apart from provider.ts (the shape) because the providers' files
// import that shape, and imports never go round in a circle.

const BY_NAME: Record<Provider, PaymentProvider> = {
  stripe: stripeProvider,
  ifthenpay: ifthenpayProvider,
  easypay: easypayProvider,
};

export const providerOf = (name: Provider): PaymentProvider => BY_NAME[name];

/** In `PROVIDERS` order, which is also which one wins a method two providers take (after the source). */
export const allProviders = (): PaymentProvider[] => PROVIDERS.map(providerOf);
