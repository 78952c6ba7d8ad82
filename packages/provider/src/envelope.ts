/** The response envelope and its Subscription object (docs/upstream.md, "Envelope"). */
import type { Plan } from './plans.ts'

const pad = (n: number): string => String(n).padStart(2, '0')

/** `YYYY-MM-DDTHH:MM:SS UTC`, the format of the subscription's `next_billing_cycle`. */
export function billingFormat (ms: number): string {
  const d = new Date(ms)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`
}

/** Billing cycles renew on the first day of the next month. */
function nextBillingCycle (nowMs: number): number {
  const d = new Date(nowMs)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
}

export function subscription (plan: Plan, nowMs: number): unknown[] {
  return [{
    meta: { current_timestamp: Math.floor(nowMs / 1000), next_billing_cycle: billingFormat(nextBillingCycle(nowMs)) },
    plans: [{ plan: plan.name === 'Free' ? 'Free Plan' : `${plan.name} Plan`, sport: 'Football', category: plan.name === 'Free' ? 'Free' : 'Standard' }],
    add_ons: plan.features.has('predictions') ? [{ add_on: 'Predictions', sport: 'Football' }] : [],
    widgets: []
  }]
}
