/**
 * The conformance suite of the upstream API (docs/upstream.md), runnable against any target: the embedded
 * provider (provider.test.ts), the gateway's REST passthrough, or the real upstream. It comes in parts, one
 * file each: 2 resources and the envelope, 4 endpoints, odds feeds and query options, 5 authentication and plan access,
 * 7 errors, 8 limits. Test names start with the part and rule number they check (8.2.3: the third counting
 * rule of the limits), so a failure names what to fix.
 *
 * Tests within the suite run in order and share the target's bucket state; the clock-moving tests of the
 * hour window run last. Ids are discovered through the API, except leagues 271 and 501, which the contract fixes.
 */
import { describe } from 'vitest'
import { createCtx } from './context.ts'
import { describeResources } from './part2-resources.ts'
import { describeCore } from './part4-core.ts'
import { describeFootball } from './part4-football.ts'
import { describeOdds } from './part4-odds.ts'
import { describeOptions } from './part4-options.ts'
import { describeAuth } from './part5-auth.ts'
import { describeErrors } from './part7-errors.ts'
import { describeLimits } from './part8-limits.ts'
import type { ConformanceTarget } from './target.ts'

export type { ConformanceTarget, ConformanceTokens, LimitedToken } from './target.ts'

/** Registers the whole suite. `getTarget` is called lazily, so it may return a target started in `beforeAll`. */
export function describeConformance (getTarget: () => ConformanceTarget): void {
  const ctx = createCtx(getTarget)
  describe('2 resources and fields', () => describeResources(ctx))
  describe('4.1 common query parameters', () => describeOptions(ctx))
  describe('4.2 core endpoints', () => describeCore(ctx))
  describe('4.3–4.4 football and account endpoints', () => describeFootball(ctx))
  describe('4.5 odds feeds', () => describeOdds(ctx))
  describe('5 authentication and plans', () => describeAuth(ctx))
  describe('7 errors', () => describeErrors(ctx))
  describe('8 limits', () => describeLimits(ctx))
}
