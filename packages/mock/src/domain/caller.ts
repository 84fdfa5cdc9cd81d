/** Who a domain operation acts for: the routing core authenticates the key and hands this down. */
import type { ApiKeyRow, ResellerRow } from '../state/schemas.js'

/** The authenticated caller of a request. */
export interface Caller {
  reseller: ResellerRow
  key: ApiKeyRow
  /** A `svc_test_` key: never changes state. */
  sandbox: boolean
}
