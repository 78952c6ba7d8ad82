/** The upstream module's public surface: the HTTP client, its typed errors and the anomaly reporter. */
export {
  createUpstreamClient,
  type CallInfo,
  type PaginateOptions,
  type Query,
  type RawResponse,
  type RequestOptions,
  type UpstreamClient,
  type UpstreamResponse
} from './client.ts'
export * from './upstream-errors.ts'
export { createAnomalyReporter, type AnomalySink } from './anomalies.ts'
