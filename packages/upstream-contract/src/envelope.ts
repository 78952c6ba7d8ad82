/** Shapes of the response envelope (docs/upstream.md, "Envelope"), shared by the provider that writes them and the passthrough that rewrites them. */

export interface Pagination {
  count: number
  per_page: number
  current_page: number
  next_page: string | null
  /** Cursor pagination: the `cursor` of the next page, null on the last. */
  next_cursor?: string | null
  has_more: boolean
}

export interface RateLimitBody {
  resets_in_seconds: number
  remaining: number
  requested_entity: string
}
