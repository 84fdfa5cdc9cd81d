// Which HMAC backend `#crypto` is bound to in this test project: packages/sdk/vitest.config.ts runs
// the webhook tests once per binding (`sdk:unit`, node:crypto; `sdk:webcrypto`, Web Crypto).
import { inject } from 'vitest'

/** The backend `#crypto` resolves to: `node` (node:crypto) or `web` (Web Crypto). */
export type WebhooksBinding = 'node' | 'web'

declare module 'vitest' {
  export interface ProvidedContext {
    webhooksBinding: WebhooksBinding
  }
}

export const BINDING: WebhooksBinding = inject('webhooksBinding')

/** A describe label naming the binding, as a user's runtime would pick it. */
export const BINDING_LABEL =
  BINDING === 'node' ? 'node:crypto (the `node` condition)' : 'Web Crypto (the `default` condition)'
