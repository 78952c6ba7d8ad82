/**
 * Rows that tell the match, on a busy board at 390×844 and 1366×768, light and dark: a red card is a badge
 * beside its team (one per red, second yellows included), the latest goal sits under the side it counts
 * for (an own goal under the other side), every event kind has an icon and a word (a substitution names
 * the player on and off, VAR its decision), the events button says what it opens and is 44×44 on a touch
 * screen; results look like results (the winner bold, the loser as readable as any name, a draw plain, a
 * postponed match without a score, pens and extra time noted); the goal flash stands out at 3:1 on its
 * background; times are 24-hour (the board and /status) under a 12-hour locale; no axe-core violation.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { busyBoard, type BusyBoard } from './busy-board.ts'
import { type Box, boxes, contrast, openView, parseRgb, row, VIEWS, viewName } from './board-page.ts'
import { axeViolations, computed, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, type UiGateway } from './harness.ts'
import { seedDays } from './seed-days.ts'

/** What these tests read of the page's window (they are typed without the DOM library). */
interface Win { getComputedStyle: (e: unknown) => Record<string, string> }

/** The visible word each event kind is listed with. */
const WORDS: Record<string, string> = {
  GOAL: 'Goal',
  PENALTY: 'Penalty',
  OWNGOAL: 'Own goal',
  MISSED_PENALTY: 'Missed pen',
  YELLOWCARD: 'Yellow',
  YELLOWREDCARD: '2nd yellow',
  REDCARD: 'Red card',
  SUBSTITUTION: 'Sub',
  VAR: 'VAR: Goal disallowed'
}

describe.skipIf(!HAVE_CHROMIUM)('rows that tell the match', () => {
  let browser: Browser
  let gw: UiGateway
  let board: BusyBoard

  beforeAll(async () => {
    gw = await startUiGateway()
    browser = await launchBrowser()
    board = await busyBoard(gw.matches)
    // The day's kick-offs (the 24-hour times): the provider's days of one league, as the poller reads them.
    await seedDays(gw.gw, { leagues: [8] })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
  })

  for (const [index, view] of VIEWS.entries()) {
    const name = viewName(view)

    it(`shows red cards, the scorer under the scoring side and an events button that says so (${name})`, async () => {
      const { page, errors } = await openView(browser, `${gw.url}/`, view)
      // RSC Gent, down to ten at 6': one badge beside Gent, none beside Brugge.
      const gent = row(page, board.gent.id)
      expect(await gent.locator('.tl-home .tl-red-card').count()).toBe(1)
      expect(await gent.locator('.tl-home .tl-red-card').isVisible()).toBe(true)
      expect(await gent.locator('.tl-away .tl-red-card').count()).toBe(0)
      expect(await gent.getAttribute('aria-label')).toContain('RSC Gent 1 red card')
      // Stoke: a second yellow and a red, two badges.
      expect(await row(page, board.norwich.id).locator('.tl-away .tl-red-card').count()).toBe(2)
      const [badge, gentName] = await boxes(page, [`#board article[data-fixture="${board.gent.id}"] .tl-home .tl-red-card`, `#board article[data-fixture="${board.gent.id}"] .tl-home .tl-name`]) as [Box, Box]
      expect(Math.abs((badge.y + badge.height / 2) - (gentName.y + gentName.height / 2))).toBeLessThan(gentName.height / 2)

      // VfB Dortmund's own goal counts for SV Mannheim: the line is under Mannheim, not Dortmund.
      const sel = `#board article[data-fixture="${board.mannheim.id}"]`
      expect(await page.locator(`${sel} .tl-scorer-home`).textContent()).toBe("45' David Veselý (og)")
      expect(await page.locator(`${sel} .tl-scorer-away`).textContent()).toBe('')
      const [home, scorer, away] = await boxes(page, [`${sel} .tl-home .tl-name`, `${sel} .tl-scorer-home`, `${sel} .tl-away .tl-name`]) as [Box, Box, Box]
      expect(scorer.y).toBeGreaterThanOrEqual(home.y + home.height - 1)
      if (view.width < 500) {
        // Stacked: between Mannheim's line and Dortmund's.
        expect(scorer.y + scorer.height).toBeLessThanOrEqual(away.y + 1)
      } else {
        // Side by side: under Mannheim's name, right-aligned to it as the name is to the score.
        expect(Math.abs((scorer.x + scorer.width) - (home.x + home.width))).toBeLessThan(12)
      }
      // An away goal goes under the away side.
      const leeds = '#board article[data-fixture="7002"]'
      expect(await page.locator(`${leeds} .tl-scorer-away`).textContent()).toBe("23' Dwight McNeil")
      const [everton, evertonGoal] = await boxes(page, [`${leeds} .tl-away .tl-name`, `${leeds} .tl-scorer-away`]) as [Box, Box]
      expect(evertonGoal.y).toBeGreaterThanOrEqual(everton.y + everton.height - 1)
      expect(Math.abs(evertonGoal.x - everton.x)).toBeLessThan(24)

      // The events button says what it opens, and a finger can hit it.
      const toggle = row(page, board.vigo.id).locator('button.tl-toggle')
      expect(await toggle.innerText()).toMatch(/^Events/)
      expect(await toggle.evaluate((b) => (b as unknown as { ariaExpanded: string }).ariaExpanded)).toBe('false')
      const size = await toggle.boundingBox()
      if (view.width < 500) expect(size !== null && size.width >= 44 && size.height >= 44).toBe(true)
      await shot(page, `rows-${name}`, { docs: true, demo: name === '1366-light' })
      expect(errors).toEqual([])
      await page.close()
    })

    it(`lists every event kind with an icon and a word (${name})`, async () => {
      const { page, errors } = await openView(browser, `${gw.url}/`, view)
      const seen = new Map<string, { word: string, icon: string | null, text: string }>()
      for (const id of [board.vigo.id, board.norwich.id, board.mannheim.id, 7203, 7501]) {
        const r = row(page, id)
        await r.locator('button.tl-toggle').click()
        expect(await r.locator('button.tl-toggle').getAttribute('aria-expanded')).toBe('true')
        for (const ev of await r.locator('.tl-ev').all()) {
          const type = await ev.getAttribute('data-type') ?? ''
          seen.set(type, {
            word: await ev.locator('.tl-kind').textContent() ?? '',
            icon: await ev.locator('svg.tl-icon[role="img"]').first().getAttribute('aria-label'),
            text: await ev.innerText()
          })
        }
      }
      expect([...seen.keys()].sort()).toEqual(Object.keys(WORDS).sort())
      for (const [type, word] of Object.entries(WORDS)) {
        expect(seen.get(type)?.word, type).toBe(word)
        expect(seen.get(type)?.icon, type).toBeTruthy()
      }
      // A substitution names both players, with the way each went; VAR says what it decided.
      const sub = row(page, board.vigo.id).locator('.tl-ev[data-type="SUBSTITUTION"]')
      expect(await sub.locator('.tl-on').textContent()).toBe('Maxime Diallo')
      expect(await sub.locator('.tl-off').textContent()).toBe('Tomás Prieto')
      expect(await sub.locator('.tl-off svg').getAttribute('aria-label')).toBe('off:')
      expect(seen.get('VAR')?.text).toContain('Michal Pospíšil')
      expect(seen.get('OWNGOAL')?.text).toContain('David Veselý (og)')
      // Each listed event is whole on screen.
      for (const ev of await row(page, board.vigo.id).locator('.tl-ev').all()) {
        expect(await ev.evaluate((e) => e.scrollWidth <= e.clientWidth + 0.5)).toBe(true)
      }
      await row(page, board.vigo.id).scrollIntoViewIfNeeded()
      await shot(page, `rows-events-${name}`, { docs: true })
      expect(await axeViolations(page)).toEqual([])
      expect(errors).toEqual([])
      await page.close()
    }, 60_000)

    it(`makes results look like results (${name})`, async () => {
      const id = 7900 + index * 10
      const won = await gw.matches.start(id, 8, 'Winner Town', 'Loser City', 80)
      await won.goal('home', 'A. Scorer', 81)
      const level = await gw.matches.start(id + 1, 8, 'Level Town', 'Even City', 80)
      const { page, errors } = await openView(browser, `${gw.url}/`, view)
      await row(page, id).waitFor()
      await won.state('FT')
      await level.state('FT')
      await expect.poll(async () => await row(page, id).getAttribute('data-phase')).toBe('finished')
      await expect.poll(async () => await row(page, id + 1).getAttribute('data-phase')).toBe('finished')
      const winner = row(page, id).locator('.tl-home .tl-name')
      const loser = row(page, id).locator('.tl-away .tl-name')
      expect(await computed(winner, 'fontWeight')).toBe('700')
      expect(await computed(loser, 'fontWeight')).toBe('500')
      // The loser is not dimmed: the same colour as the winner, well over 4.5:1 on the row.
      expect(await computed(loser, 'color')).toBe(await computed(winner, 'color'))
      const surface = parseRgb(await computed(row(page, id), 'backgroundColor'))
      expect(contrast(parseRgb(await computed(loser, 'color')), surface)).toBeGreaterThan(7)
      // A draw: neither bold.
      expect(await row(page, id + 1).locator('.tl-name').evaluateAll((els) => els.map((e) => (globalThis as unknown as Win).getComputedStyle(e).fontWeight))).toEqual(['500', '500'])
      // Finished matches go after the ones in play in their league (Premier League: five in play).
      const order = await page.locator('#board section[data-league="8"] article.tl-match').evaluateAll((els) => els.map((e) => e.getAttribute('data-phase')))
      expect(order.slice(0, 5).every((p) => p === 'live' || p === 'break')).toBe(true)
      expect(order.slice(5).every((p) => p === 'finished')).toBe(true)

      // A postponed match: no score, its state in words (All tab).
      await page.locator('.tabs a[data-tab="all"]').click()
      const luton = row(page, board.luton.id)
      await luton.waitFor()
      expect(await luton.locator('.tl-word').innerText()).toBe('Postponed')
      expect(await luton.locator('.tl-word').isVisible()).toBe(true)
      expect(await luton.innerText()).not.toMatch(/\d\s*-\s*\d/)
      expect(await luton.locator('.tl-goals').evaluateAll((els) => els.every((e) => (globalThis as unknown as Win).getComputedStyle(e).display === 'none'))).toBe(true)
      expect(await luton.getAttribute('aria-label')).toBe('Luton Borough v Watford County, Postponed')
      expect(errors).toEqual([])
      await page.close()
    })
  }

  it('notes penalties and extra time, and a shoot-out winner is bold', async () => {
    const { page } = await openView(browser, `${gw.url}/`, VIEWS[2] as typeof VIEWS[number])
    const drawn = await page.evaluate(`import('/lib/row.js').then(({ Row }) => {
      const base = { league_id: 8, version: 1, minute: null, clock: null, starting_at: '2026-11-21T19:00:00Z', events: [] }
      const pens = { ...base, id: 1, state: { code: 'FT_PEN', name: 'After Penalties', phase: 'finished' }, home: { name: 'Pens Home', score: 1 }, away: { name: 'Pens Away', score: 1 }, scores: { penalty_shootout: { home: 3, away: 4 } } }
      const aet = { ...base, id: 2, state: { code: 'AET', name: 'After Extra Time', phase: 'finished' }, home: { name: 'Extra Home', score: 2 }, away: { name: 'Extra Away', score: 1 }, scores: {} }
      const list = document.createElement('div')
      list.className = 'tl-list'
      document.querySelector('#board').before(list)
      const view = { open: false, all: false, scoredUntil: { home: 0, away: 0 }, cancelled: [] }
      return [pens, aet].map((f) => {
        const r = new Row(f, { idPrefix: 't', onAction: () => {} })
        list.append(r.el)
        r.update(f, view)
        return { clock: r.el.querySelector('.tl-clock-text').textContent, note: r.el.querySelector('.tl-note').textContent,
          won: [...r.el.querySelectorAll('.tl-team')].map((t) => t.classList.contains('tl-win')), label: r.el.getAttribute('aria-label') }
      })
    })`)
    expect(drawn).toEqual([
      { clock: 'FT', note: '3-4 pens', won: [false, true], label: 'Pens Home 1, Pens Away 1, After Penalties, 3-4 pens, Pens Away won' },
      { clock: 'AET', note: '', won: [true, false], label: 'Extra Home 2, Extra Away 1, After Extra Time, Extra Home won' }
    ])
    await page.close()
  })

  it('shows a level FT of a knock-out tie still in the live set as awaiting extra time, not as a result', async () => {
    const { page } = await openView(browser, `${gw.url}/`, VIEWS[2] as typeof VIEWS[number])
    const drawn = await page.evaluate(`import('/lib/row.js').then(({ Row }) => {
      const base = { league_id: 8, version: 1, starting_at: new Date().toISOString(), events: [], scores: {}, state: { code: 'FT', name: 'Full Time', phase: 'finished' } }
      const cup = { ...base, id: 1, round_id: null, home: { name: 'Cup Home', score: 1 }, away: { name: 'Cup Away', score: 1 } }
      const league = { ...base, id: 2, round_id: 33, home: { name: 'League Home', score: 1 }, away: { name: 'League Away', score: 1 } }
      const won = { ...base, id: 3, round_id: null, home: { name: 'Won Home', score: 2 }, away: { name: 'Won Away', score: 1 } }
      const list = document.createElement('div')
      document.querySelector('#board').before(list)
      const draw = (f, mayGoOn) => {
        const r = new Row(f, { idPrefix: 'a' + f.id + mayGoOn, onAction: () => {} })
        list.append(r.el)
        r.update(f, { open: false, all: false, scoredUntil: { home: 0, away: 0 }, cancelled: [], mayGoOn })
        return [r.el.querySelector('.tl-clock-text').textContent, r.el.getAttribute('aria-label')]
      }
      return [draw(cup, true), draw(cup, false), draw(league, true), draw(won, true)]
    })`)
    expect(drawn).toEqual([
      ['Await ET', 'Cup Home 1, Cup Away 1, awaiting extra time'],
      ['FT', 'Cup Home 1, Cup Away 1, Full Time'],
      ['FT', 'League Home 1, League Away 1, Full Time'],
      ['FT', 'Won Home 2, Won Away 1, Full Time, Won Home won']
    ])
    await page.close()
  })

  it('announces a level FT of a knock-out tie only once the match leaves the live set (it may go on), a league match\'s at once, and a shoot-out\'s winner', async () => {
    const { page } = await openView(browser, `${gw.url}/`, VIEWS[2] as typeof VIEWS[number])
    const said = await page.evaluate(`import('/lib/format.js').then(({ announcements }) => {
      const state = (code, phase, name) => ({ id: 0, code, name, phase })
      // A cup tie has no round (round_id null), a league match has one.
      const fixture = (home, away, code, scores = {}, round_id = null) => ({ id: 1, league_id: 8, round_id, home: { name: round_id === null ? 'Cup Home' : 'League Home', score: home }, away: { name: round_id === null ? 'Cup Away' : 'League Away', score: away }, state: state(code, code === 'BREAK' ? 'break' : 'finished', code), scores, events: [] })
      const frame = (f, changes) => ({ fixture_id: 1, fixture: f, changes })
      const whistle = (f) => frame(f, [{ kind: 'state_changed', state: f.state, previous: state('INPLAY_2ND_HALF', 'live', '2nd Half') }])
      const level = fixture(1, 1, 'FT')
      const leagueLevel = fixture(1, 1, 'FT', {}, 33)
      return [
        announcements(whistle(level)),
        announcements(frame(fixture(1, 1, 'BREAK'), [{ kind: 'state_changed', state: state('BREAK', 'break', 'Break'), previous: level.state }])),
        announcements(frame(level, [{ kind: 'fixture_removed' }])),
        announcements(whistle(fixture(2, 1, 'FT'))),
        announcements(frame(fixture(1, 1, 'FT_PEN', { penalty_shootout: { home: 3, away: 4 } }), [{ kind: 'state_changed', state: state('FT_PEN', 'finished', 'After Penalties'), previous: state('INPLAY_PENALTIES', 'live', 'Penalties') }])),
        announcements(whistle(leagueLevel)),
        announcements(frame(leagueLevel, [{ kind: 'fixture_removed' }]))
      ]
    })`)
    expect(said).toEqual([
      [],
      [],
      ['Full time: Cup Home 1, Cup Away 1.'],
      ['Full time: Cup Home 2, Cup Away 1.'],
      ['Full time, Cup Away win 4-3 on penalties: Cup Home 1, Cup Away 1.'],
      ['Full time: League Home 1, League Away 1.'],
      []
    ])
    await page.close()
  })

  it('reads a period\'s first minute as its first: 1\' at kick-off, 46\' at the second half\'s', async () => {
    const { page } = await openView(browser, `${gw.url}/`, VIEWS[2] as typeof VIEWS[number])
    const drawn = await page.evaluate(`import('/lib/row.js').then(({ Row }) => {
      const now = new Date().toISOString()
      const clock = (from) => ({ period_started_at: now, counts_from: from, length: 45, added: null, rate: 1, ticking: true })
      const base = { league_id: 8, version: 1, starting_at: now, events: [], scores: {}, home: { name: 'Home', score: 0 }, away: { name: 'Away', score: 0 } }
      const first = { ...base, id: 1, minute: 0, period: '1st-half', clock: clock(0), state: { code: 'INPLAY_1ST_HALF', name: '1st Half', phase: 'live' } }
      const second = { ...base, id: 2, minute: 45, period: '2nd-half', clock: clock(45), state: { code: 'INPLAY_2ND_HALF', name: '2nd Half', phase: 'live' } }
      const view = { open: false, all: false, scoredUntil: { home: 0, away: 0 }, cancelled: [] }
      return [first, second].map((f) => {
        const r = new Row(f, { idPrefix: 'k', onAction: () => {} })
        r.update(f, view)
        return r.el.querySelector('.tl-clock-text').textContent
      })
    })`)
    expect(drawn).toEqual(["1'", "46'"])
    await page.close()
  })

  it('flashes a goal with a ring of 3:1 or more against the row, its texts still 4.5:1 on the tint, light and dark', async () => {
    const m = await gw.matches.start(7990, 501, 'Flash Town', 'Quiet City', 30)
    for (const view of [VIEWS[1], VIEWS[2]] as Array<typeof VIEWS[number]>) {
      const { page } = await openView(browser, `${gw.url}/`, view)
      await row(page, 7990).waitFor()
      const surface = parseRgb(await computed(row(page, 7990), 'backgroundColor'))
      await m.goal('home', `Scorer ${view.dark ? 'D' : 'L'}`, 31 + (view.dark ? 1 : 0))
      await page.locator('#board article[data-fixture="7990"].tl-flash').waitFor({ timeout: 3000 })
      // Held at the height of the flash: the ring's colour against the row's background.
      const ring = await row(page, 7990).evaluate((el) => {
        const a = el.getAnimations()[0]
        if (a === undefined) return ''
        a.pause()
        a.currentTime = 200
        return (globalThis as unknown as Win).getComputedStyle(el).boxShadow ?? ''
      })
      expect(contrast(parseRgb(ring), surface), `${viewName(view)}: ${ring}`).toBeGreaterThanOrEqual(3)
      // Every text of the flashing row (the scorer, the clock, the muted words) keeps 4.5:1 on the tint.
      expect(await axeViolations(page), viewName(view)).toEqual([])
      await page.close()
    }
  })

  it('writes 24-hour times on the board and on /status, under a 12-hour locale', async () => {
    const { page } = await openView(browser, `${gw.url}/#scheduled`, VIEWS[2] as typeof VIEWS[number], { wait: 'none' })
    const clocks = page.locator('#board article[data-phase="scheduled"] .tl-clock-text')
    await expect.poll(async () => await clocks.count(), { timeout: 20_000 }).toBeGreaterThan(0)
    for (const text of await clocks.allTextContents()) expect(text).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/)
    await page.goto(`${gw.url}/status`)
    await expect.poll(async () => await page.locator('#updated').textContent()).toMatch(/^ · updated ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/)
    expect(await page.locator('body').innerText()).not.toMatch(/\b(AM|PM)\b/)
    expect(await axeViolations(page)).toEqual([])
    await page.close()
  }, 30_000)
})
