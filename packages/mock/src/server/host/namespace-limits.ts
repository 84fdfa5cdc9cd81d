/**
 * The default of `--max-namespaces`, apart from the registry (namespaces.ts) so that the CLI prints
 * it without loading the registry's error answers before the server's ready line.
 */

/** `--max-namespaces` when not given. */
export const DEFAULT_MAX_NAMESPACES = 1000
