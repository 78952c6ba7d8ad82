/**
 * Facts of the upstream's livescores feed that the gateway paces itself by (docs/upstream.md,
 * "Livescores"). The hourly window of the rate limits is upstream-contract/hourly-window.ts.
 */

/** `livescores/latest` lists the fixtures that changed in the last 10 seconds, no further back. */
export const LATEST_WINDOW_MS = 10_000

/** How long before kick-off a fixture enters the `livescores` feed: 15 minutes on the real API. */
export const FEED_LEAD_MS = 15 * 60_000
