/**
 * The inspector page (docs/running-the-mock.md, "Inspector"), served by the standalone server at
 * `/__mock/`: it shows and drives the running mock through the control endpoints, and follows
 * `/__mock/stream` to read again what changed. Modules: layout.ts (skeleton), live.ts (stream and
 * reads), one module per panel, notices.ts (status lines beside the controls).
 */
import './app.css'
import { byId } from './dom.js'
import { skeleton } from './layout.js'
import { connect } from './live.js'
import { showNamespaces } from './namespaces.js'

/** Values the server puts in the page (from the SDK's schemas), so that they are never restated here. */
const config = JSON.parse(byId('inspector-config').textContent ?? '{}') as {
  ticket_statuses: string[]
  namespaces?: boolean
}

skeleton(config)
connect()
void showNamespaces(config)
