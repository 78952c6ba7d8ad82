import { describe, expect, it } from 'vitest'
import { changeFrameJson } from '../../../src/protocol/frames.ts'
import { errorFrame, parseClientFrame, snapshotFrame, snapshotFrameBytes } from '../../../src/protocol/control.ts'
import { fixture } from '../../integration/store/fixture.ts'

const parse = (value: unknown) => parseClientFrame(typeof value === 'string' ? value : JSON.stringify(value))

describe('parseClientFrame', () => {
  it('accepts the three ops as sent (a subscribe without `snapshot` keeps it absent: the hub reads it as true)', () => {
    expect(parse({ op: 'subscribe', ref: '1', leagues: [271], fixtures: [19146701], since: 'ab:3' }))
      .toEqual({ ok: true, frame: { op: 'subscribe', ref: '1', leagues: [271], fixtures: [19146701], since: 'ab:3' } })
    expect(parse({ op: 'unsubscribe', ref: '2', leagues: [271] })).toMatchObject({ ok: true, frame: { op: 'unsubscribe' } })
    expect(parse({ op: 'ping', ref: 3 })).toEqual({ ok: true, frame: { op: 'ping', ref: 3 } })
    expect(parse({ op: 'subscribe', snapshot: false })).toEqual({ ok: true, frame: { op: 'subscribe', snapshot: false } })
  })

  it('accepts teams, kinds and leagues "*" on subscribe and unsubscribe', () => {
    expect(parse({ op: 'subscribe', ref: '1', leagues: '*', teams: [85], kinds: ['score_changed', 'state_changed'] }))
      .toEqual({ ok: true, frame: { op: 'subscribe', ref: '1', leagues: '*', teams: [85], kinds: ['score_changed', 'state_changed'] } })
    expect(parse({ op: 'unsubscribe', ref: '2', leagues: '*', teams: [85], kinds: ['clock'] }))
      .toEqual({ ok: true, frame: { op: 'unsubscribe', ref: '2', leagues: '*', teams: [85], kinds: ['clock'] } })
  })

  it('answers unknown ops with unknown_op and the ref', () => {
    expect(parse({ op: 'publish', ref: '7' })).toEqual({ ok: false, error: errorFrame('7', 'unknown_op', 'unknown op "publish"') })
  })

  it.each([
    ['not JSON', '{'],
    ['an array', '[1]'],
    ['no op', { ref: '1' }],
    ['zero id', { op: 'subscribe', leagues: [0] }],
    ['fractional id', { op: 'subscribe', fixtures: [1.5] }],
    ['string id', { op: 'subscribe', fixtures: ['1'] }],
    ['unknown field', { op: 'ping', extra: true }],
    ['snapshot not boolean', { op: 'subscribe', snapshot: 'yes' }],
    ['leagues "all"', { op: 'subscribe', leagues: 'all' }],
    ['leagues ["*"]', { op: 'subscribe', leagues: ['*'] }],
    ['negative team', { op: 'subscribe', teams: [-85] }],
    ['unknown kind', { op: 'subscribe', kinds: ['goal'] }],
    ['no kinds', { op: 'unsubscribe', kinds: [] }]
  ])('answers %s with invalid_message', (_what, value) => {
    const result = parse(value)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error.code).toBe('invalid_message')
  })

  it('keeps the ref of a frame that fails the schema', () => {
    const result = parse({ op: 'subscribe', ref: 'x', leagues: [-1] })
    expect(!result.ok && result.error).toMatchObject({ ref: 'x', code: 'invalid_message', message: expect.stringContaining('leagues') })
  })

  it('refuses frames over the size limit and binary frames', () => {
    const big = JSON.stringify({ op: 'ping', ref: 'x'.repeat(10), pad: 'y'.repeat(16 * 1024) })
    expect(parseClientFrame(big)).toMatchObject({ ok: false, error: { code: 'invalid_message' } })
    expect(parseClientFrame(Buffer.from('{"op":"ping"}'), true)).toMatchObject({ ok: false, error: { code: 'invalid_message' } })
    expect(parseClientFrame('{"op":"ping"}', false, 5)).toMatchObject({ ok: false })
  })
})

it('builds the change frame by splicing the record JSON', () => {
  const json = JSON.stringify({ cursor: 'a:1', fixture_id: 1 })
  expect(JSON.parse(changeFrameJson(json))).toEqual({ type: 'change', cursor: 'a:1', fixture_id: 1 })
})

it('builds the snapshot frame around serialized fixtures, byte for byte as JSON.stringify would', () => {
  const fixtures = [fixture(1, 271), fixture(2, 501)]
  const body = Buffer.from(JSON.stringify(fixtures))
  for (const ref of [undefined, '1', 7, 'quote"d']) {
    expect(snapshotFrameBytes(ref, 'ab:3', body).toString()).toBe(JSON.stringify(snapshotFrame(ref, 'ab:3', fixtures)))
  }
  expect(snapshotFrameBytes(undefined, 'ab:0', Buffer.from('[]')).toString()).toBe('{"type":"snapshot","cursor":"ab:0","fixtures":[]}')
})
