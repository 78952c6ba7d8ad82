/**
 * A setting of only spaces is neither unset (only the empty string is) nor a value: refused with the
 * variable named, never read as 0 (a number of spaces coerces to 0: a random port, no poll reserve).
 */
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../src/config.ts'

describe('numeric settings given only whitespace', () => {
  for (const name of ['TOUCHLINE_PORT', 'TOUCHLINE_POLL_RESERVE', 'TOUCHLINE_PROVIDER_PORT', 'TOUCHLINE_SEED']) {
    it(`${name}=" " is refused with the variable named, not read as 0`, () => {
      let thrown: unknown
      let parsed: unknown
      try { parsed = loadConfig({ [name]: ' ' })[name as keyof ReturnType<typeof loadConfig>] } catch (err) { thrown = err }
      expect({ parsed, refused: thrown instanceof ConfigError && thrown.variables.includes(name) }).toEqual({ parsed: undefined, refused: true })
    })
  }
})
