/** The upstream module's public surface: the HTTP client, its typed errors and the payload schemas. */
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
export * from './errors.ts'
export {
  parseEnvelope, parseErrorBody, parseFixtures,
  type Envelope, type ErrorBody, type InvalidFixture, type ParseFixturesOptions, type UpstreamFixture
} from './schemas.ts'
