/**
 * The namespaces of the standalone server: the registry, the mock each one gets (the server's seed
 * unless its own, its own path, log prefix and lazy inspector), and, with a state file, their rows
 * kept in it and read back at start. See `ARCHITECTURE.md`, "Namespaces".
 */
import { assembleMock } from '../../mock-api.js'
import type { SeedInput } from '../../seed/schema.js'
import type { StateDatabase } from '../state-file/database.js'
import { NamespaceFile, type SavedNamespace } from '../state-file/namespaces.js'
import { StateFileError } from '../state-file/path.js'
import { type HostedMock, hostMock } from './hosted-mock.js'
import { DEFAULT_MAX_NAMESPACES, type NamespaceRecord, NamespaceRegistry } from './namespaces.js'
import { restoreSaved } from './standalone-state.js'

/** What the namespaces share with the server. */
export interface NamespaceHostOptions {
  insecureWebhooks: boolean
  servedOnNetwork: boolean
  journalLimit?: number
  log?: (line: string) => void
  warn: (line: string) => void
  /** The server's seed, for a namespace made without one (`undefined`: the demo seed). */
  serverSeed: () => SeedInput | undefined
  maxNamespaces?: number
  namespaceClock?: () => number
  /** The state file, locked: namespaces are kept in it and read back from it. */
  db?: StateDatabase
}

/** The registry of the server's namespaces, and what stops them all. */
export interface HostedNamespaces {
  registry: NamespaceRegistry
  /** Ends the namespaces' event streams, so that closing the server does not wait for them. */
  endStreams(): void
  /** Stops every namespace and their state file's syncs (nothing is deleted). */
  close(): void
}

/**
 * Makes the registry; with a state file, reads back the namespaces it keeps (an expired one is
 * removed from it), each restored as it was. Throws a {@link StateFileError} for one the mock
 * cannot run on.
 */
export function hostNamespaces(options: NamespaceHostOptions): HostedNamespaces {
  const { warn } = options
  const file = options.db ? new NamespaceFile(options.db, warn) : undefined
  // The server's seed, parsed once for all the namespaces made without their own.
  let serverSeed: { value: SeedInput | undefined } | undefined
  const defaultSeed = () => {
    serverSeed ??= { value: options.serverSeed() }
    return serverSeed.value
  }

  const build = (
    record: NamespaceRecord,
    seed: SeedInput | undefined,
    saved?: SavedNamespace,
  ): HostedMock => {
    const common = {
      insecureWebhooks: options.insecureWebhooks,
      journalLimit: options.journalLimit,
      randomSeed: record.randomSeed,
      // Its own path, which the Link of a deprecated route and its OpenAPI document's `servers` carry.
      baseUrl: `http://localhost/ns/${record.id}`,
    }
    const ownSeed = () =>
      record.seedJson === null ? defaultSeed() : (JSON.parse(record.seedJson) as SeedInput)
    const assembled = saved
      ? assembleMock({ ...common, deferredSeed: ownSeed })
      : assembleMock({ ...common, seed: seed ?? defaultSeed() })
    if (saved) restoreNamespace(assembled.context.store, saved, options.db!.path)
    const persist = file ? () => file.durable(record.id) : undefined
    assembled.context.durable = persist
    return hostMock(assembled, {
      insecureWebhooks: options.insecureWebhooks,
      servedOnNetwork: options.servedOnNetwork,
      log: options.log,
      warn,
      persist,
      basePath: `/ns/${record.id}`,
      logPrefix: `[${record.id}] `,
      lazyInspector: true,
    })
  }

  const registry = new NamespaceRegistry({
    max: options.maxNamespaces ?? DEFAULT_MAX_NAMESPACES,
    build,
    now: options.namespaceClock,
    warn,
    store: file && {
      created: (namespace) => {
        const { store, clock } = namespace.mock.context
        file.created(namespace.record, store, clock)
      },
      deleted: (id) => file.deleted(id),
      renewed: (record) => file.renewed(record),
    },
  })

  if (file) {
    const now = registry.now()
    for (const saved of readSaved(file, options.db!.path)) {
      const { entry } = saved
      if (entry.expiresAtMs <= now) {
        file.deleted(entry.id)
        continue
      }
      // The file's expiry leads the real one by up to a ttl: a restart renews at most by one ttl.
      const record = { ...entry, expiresAtMs: Math.min(entry.expiresAtMs, now + entry.ttlSeconds * 1000) }
      const mock = build(record, undefined, saved)
      file.restored(saved, mock.context.store, mock.context.clock)
      registry.adopt(record, mock)
      // Its pending deliveries are due again: at once if their time has passed.
      mock.context.dispatcher.resume()
    }
  }

  return {
    registry,
    endStreams() {
      for (const namespace of registry.held()) namespace.mock.extension.close()
    },
    close() {
      registry.close()
      file?.close()
    },
  }
}

function readSaved(file: NamespaceFile, path: string): SavedNamespace[] {
  try {
    return file.read()
  } catch (error) {
    throw new StateFileError(
      path,
      `does not hold a valid mock state (namespaces: ${(error as Error).message})`,
      {
        cause: error,
      },
    )
  }
}

/** Puts a namespace's saved rows, counters and clock into its store, checked as the root's are. */
function restoreNamespace(store: Parameters<typeof restoreSaved>[0], saved: SavedNamespace, path: string) {
  restoreSaved(
    store,
    {
      seed: undefined as never,
      counters: saved.counters,
      last_micros: saved.last_micros,
      clock_offset_ms: saved.clock_offset_ms,
      tableNames: Object.keys(saved.tables),
      rows: { written: false, tables: saved.tables },
    },
    `${path} (namespace ${saved.entry.id})`,
  )
}
