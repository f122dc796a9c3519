/** The payments module's public entry: what other modules, jobs and plugins may use of it. */
export { type PaymentProvider } from './payment-provider.js';
export { sandboxProvider } from './sandbox-provider.js';
export { stripeProvider } from './stripe-provider.js';
