/**
 * Plans and demo tokens of the embedded provider (docs/provider.md, "Demo tokens and plans"): the real API's
 * plans with their hourly calls per entity. The fixed demo tokens let docs and tests rely on them; the extra
 * tokens exist so that every way the real API refuses a known token with 401 (revoked, regenerated,
 * expired, issued for another environment) can be exercised against a real server.
 */
export type PlanName = 'Free' | 'Starter' | 'Growth' | 'Pro' | 'Enterprise'

export interface Plan {
  name: PlanName
  /** Calls per entity per hour. */
  hourlyLimit: number
  /** Only these leagues are visible; `'*'` for all (the Free plan sees 271 and 501 only). */
  leagues: readonly number[] | '*'
  /** Includes that need a tier above this plan (xGFixture needs Pro or better). */
  features: ReadonlySet<'xg' | 'predictions' | 'odds'>
  /** Enterprise burst buffer: requests allowed above the hourly limit before 429. */
  burst: boolean
}

const FREE_LEAGUES = [271, 501] as const

export const PLANS: Readonly<Record<PlanName, Plan>> = {
  Free: { name: 'Free', hourlyLimit: 3000, leagues: FREE_LEAGUES, features: new Set(), burst: false },
  Starter: { name: 'Starter', hourlyLimit: 2000, leagues: '*', features: new Set(), burst: false },
  Growth: { name: 'Growth', hourlyLimit: 2500, leagues: '*', features: new Set(['odds']), burst: false },
  Pro: { name: 'Pro', hourlyLimit: 3000, leagues: '*', features: new Set(['xg', 'odds']), burst: false },
  Enterprise: { name: 'Enterprise', hourlyLimit: 5000, leagues: '*', features: new Set(['xg', 'odds', 'predictions']), burst: true }
}

type TokenStatus = 'active' | 'revoked' | 'regenerated' | 'expired' | 'other-environment'

export interface TokenRecord {
  token: string
  plan: PlanName
  status: TokenStatus
}

/** The demo tokens, one per plan. */
export const DEMO_TOKENS = {
  free: 'demo-free',
  starter: 'demo-starter',
  growth: 'demo-growth',
  pro: 'demo-pro',
  enterprise: 'demo-enterprise'
} as const

/** Tokens that exist but must be refused with 401: revoked, replaced by a regenerated one, expired, or of another environment. */
export const REFUSED_TOKENS = {
  revoked: 'demo-revoked',
  regenerated: 'demo-regenerated-old',
  expired: 'demo-expired',
  otherEnvironment: 'sandbox-demo-pro'
} as const

export const DEFAULT_TOKENS: readonly TokenRecord[] = [
  { token: DEMO_TOKENS.free, plan: 'Free', status: 'active' },
  { token: DEMO_TOKENS.starter, plan: 'Starter', status: 'active' },
  { token: DEMO_TOKENS.growth, plan: 'Growth', status: 'active' },
  { token: DEMO_TOKENS.pro, plan: 'Pro', status: 'active' },
  { token: DEMO_TOKENS.enterprise, plan: 'Enterprise', status: 'active' },
  { token: REFUSED_TOKENS.revoked, plan: 'Pro', status: 'revoked' },
  { token: REFUSED_TOKENS.regenerated, plan: 'Pro', status: 'regenerated' },
  { token: REFUSED_TOKENS.expired, plan: 'Pro', status: 'expired' },
  { token: REFUSED_TOKENS.otherEnvironment, plan: 'Pro', status: 'other-environment' }
]
