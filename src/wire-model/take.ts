/**
 * What a consumer of the log takes (docs/protocol.md, "Odds"): the kinds of change, and the fixtures' odds or
 * not. A subscription, a feed request and a webhook name it the same way; this is the one reading of it.
 */
import { ODDS_KINDS, type SubscribedKind } from './model.ts'

/** What a consumer takes of the odds: every odds change, or those of some bookmakers and markets. */
export interface OddsTake {
  bookmakers?: ReadonlySet<number>
  markets?: ReadonlySet<number>
}

/**
 * What a consumer takes of the log: `kinds` (undefined: every match kind, every odds kind when it takes
 * odds, `standings_changed` when it takes standings), `odds` (undefined: no odds at all, neither records nor
 * images) and `standings` (the leagues' live tables: records and images).
 */
export interface Take {
  kinds?: ReadonlySet<SubscribedKind> | undefined
  odds?: OddsTake | undefined
  standings?: boolean | undefined
}

/** What a subscription, a request or a webhook names of what it takes. */
export interface NamedTake {
  kinds?: readonly SubscribedKind[] | undefined
  odds?: boolean | undefined
  bookmakers?: readonly number[] | undefined
  markets?: readonly number[] | undefined
  standings?: boolean | undefined
}

const ODDS_KIND_NAMES: ReadonlySet<string> = new Set(ODDS_KINDS)

/** Whether what is named takes odds: `odds: true`, an odds filter, or a kinds list naming an odds kind. */
export function namesOdds (named: NamedTake): boolean {
  if (named.odds === false) return false
  return named.odds === true || named.bookmakers !== undefined || named.markets !== undefined || (named.kinds?.some((k) => ODDS_KIND_NAMES.has(k)) ?? false)
}

/** Whether what is named takes the leagues' tables: `standings: true`, or a kinds list naming `standings_changed`. */
export function namesStandings (named: NamedTake): boolean {
  if (named.standings === false) return false
  return named.standings === true || (named.kinds?.includes('standings_changed') ?? false)
}

/** What is named, as a Take. */
export function takeOf (named: NamedTake): Take {
  return {
    ...(named.kinds !== undefined ? { kinds: new Set(named.kinds) } : {}),
    ...(namesStandings(named) ? { standings: true } : {}),
    ...(namesOdds(named)
      ? {
          odds: {
            ...(named.bookmakers !== undefined ? { bookmakers: new Set(named.bookmakers) } : {}),
            ...(named.markets !== undefined ? { markets: new Set(named.markets) } : {})
          }
        }
      : {})
  }
}

/** Whether a take narrows what it receives (kinds or odds filters): a `delta` consumer must take everything. */
export const narrowsTake = (take: Take): boolean => take.kinds !== undefined || take.odds?.bookmakers !== undefined || take.odds?.markets !== undefined
