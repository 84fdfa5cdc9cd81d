/**
 * Typed client for the reseller hosting API.
 *
 * @packageDocumentation
 */
export * from './schemas/index.js'
export { VERSION } from './version.js'
