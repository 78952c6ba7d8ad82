/**
 * What the conformance suite needs to know about the service under test. Anything that implements the
 * upstream API (docs/upstream.md) can be described by one of these: the embedded provider, the gateway's REST
 * passthrough (with gateway client keys as tokens), or the real upstream.
 */
export interface ConformanceTokens {
  /** Sees only the Free plan's leagues (271 and 501). */
  free: string
  /** No xGFixture, no odds, no predictions. */
  starter: string
  /** Has the odds package. */
  growth: string
  /** Has xGFixture and odds, but not predictions. Most tests run with this one. */
  pro: string
  /** Has every feature, including predictions. */
  enterprise: string
  revoked: string
  regenerated: string
  expired: string
  otherEnvironment: string
}

/** A token on a (possibly separate) instance whose bucket state the suite may use up. */
export interface LimitedToken {
  token: string
  /** The hourly per-entity limit of that token's plan. */
  limit: number
  /** Base URL of the instance holding this token. @default the target's baseUrl */
  baseUrl?: string
}

export interface ConformanceTarget {
  name: string
  /** Base URL including `/v3`, e.g. `http://127.0.0.1:8081/v3`. */
  baseUrl: string
  tokens: ConformanceTokens
  /**
   * How the header form of authentication carries a token (the real API reads `Authorization: <token>`).
   * @default (token) => ({ authorization: token })
   */
  authHeader?: (token: string) => Record<string, string>
  /** Hourly limits per plan token as the target reports them; omit when they are not the real API's plan limits. */
  planLimits?: { free: number, starter: number, growth: number, pro: number, enterprise: number }
  /** A token with a small hourly limit (e.g. 20) so that 429 can be reached. The suite exhausts several entities. */
  limited?: LimitedToken
  /** An Enterprise token with a small limit and burst buffer (requests past the limit before 429), on a fresh instance. */
  burst?: LimitedToken & { buffer: number }
  /** A token on an instance that answers every data request with 500 (fault injection), for the 500 body check. */
  failing?: { token: string, baseUrl?: string }
  /**
   * Moves the target's clock forward (in-process targets only). It must move the clock of every instance named
   * here (baseUrl, limited, burst). Tests that move time run last in the suite.
   */
  advanceClock?: (ms: number) => void
  /**
   * Rules the target leaves out by design, each with the reason, which the tests of that rule report when
   * they skip. `planFeatures`: includes and endpoints that a plan tier or add-on unlocks (xGFixture, odds,
   * predictions), for a target whose tokens differ in leagues and quotas only.
   */
  unsupported?: { planFeatures?: string }
}
