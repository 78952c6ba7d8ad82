/** The bucket a passthrough request is reserved against: the upstream's naming once an answer gave it. */
import { describe, expect, it } from 'vitest'
import { chargeKeyOf, createChargedEntities, requestedEntity } from '../../../src/passthrough/charged.ts'
import { routeRequest } from '../../../src/passthrough/route.ts'

function endpointOf (path: string, query: Record<string, string> = {}): Parameters<typeof chargeKeyOf>[0] {
  const route = routeRequest(path, query)
  if (route.kind === 'refused') throw new Error(`refused: ${path}`)
  return route.endpoint
}

describe('charged entities', () => {
  it('keeps the guess until an answer names the bucket, then the named one', () => {
    const charged = createChargedEntities()
    expect(charged.of('k', 'Unknown')).toBe('Unknown')
    charged.learn('k', 'Fixture')
    expect(charged.of('k', 'Unknown')).toBe('Fixture')
    charged.learn('k', 'Momentum')
    expect(charged.of('k', 'Unknown')).toBe('Momentum')
  })

  it('stops learning new keys at its bound, and still updates the ones it has', () => {
    const charged = createChargedEntities()
    for (let i = 0; i < 1024; i++) charged.learn(`k${i}`, 'Fixture')
    charged.learn('one-too-many', 'Fixture')
    expect(charged.of('one-too-many', 'Unknown')).toBe('Unknown')
    charged.learn('k0', 'State')
    expect(charged.of('k0', 'Unknown')).toBe('State')
  })

  it('keys a catalogue path by its endpoint and a path it does not know by root and family', () => {
    expect(chargeKeyOf(endpointOf('/football/fixtures/multi/1,2'), '/football/fixtures/multi/1,2')).toBe('fixtures.multi')
    const a = chargeKeyOf(endpointOf('/football/momentum/fixtures/1'), '/football/momentum/fixtures/1')
    const b = chargeKeyOf(endpointOf('/football/momentum/fixtures/2'), '/football/momentum/fixtures/2')
    const other = chargeKeyOf(endpointOf('/football/pulse/fixtures/2'), '/football/pulse/fixtures/2')
    expect(a).toBe(b)
    expect(a).not.toBe(other)
  })

  it('reads requested_entity from a body, and nothing from one without it', () => {
    expect(requestedEntity({ data: [], rate_limit: { remaining: 1, resets_in_seconds: 2, requested_entity: 'Fixture' } })).toBe('Fixture')
    expect(requestedEntity({ message: 'Too Many Attempts.' })).toBeUndefined()
    expect(requestedEntity({ rate_limit: { requested_entity: '' } })).toBeUndefined()
    expect(requestedEntity(null)).toBeUndefined()
    expect(requestedEntity('text')).toBeUndefined()
  })
})
