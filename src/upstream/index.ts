/** The upstream module's public surface: the HTTP client, its typed errors, the payload schemas and the anomaly reporter. */
export {
  createUpstreamClient,
  type CallInfo,
  type PaginateOptions,
  type Query,
  type RateLimitSnapshot,
  type RawResponse,
  type RequestOptions,
  type UpstreamClient,
  type UpstreamClientOptions,
  type UpstreamResponse
} from './client.ts'
export * from './upstream-errors.ts'
export { createAnomalyReporter, type Anomaly, type AnomalyReporterOptions, type AnomalySink } from './anomalies.ts'
export {
  parseEnvelope, parseErrorBody, parseFixture, parseFixtures,
  type Envelope, type ErrorBody, type ParseFixturesOptions, type UpstreamFixture
} from './schemas.ts'
