/**
 * Tabs as a tablist moves through them by keyboard (the scoreboard's and the match page's): the arrow keys
 * to the next or previous tab (round the ends), Home and End to the first and the last.
 */

/**
 * The tab a key reaches from `current` among `tabs` (those shown), or undefined for any other key.
 * @template T
 * @param {T[]} tabs @param {T} current @param {string} key
 * @returns {T | undefined}
 */
export function tabReached (tabs, current, key) {
  const i = tabs.indexOf(current)
  if (key === 'ArrowRight') return tabs[(i + 1) % tabs.length]
  if (key === 'ArrowLeft') return tabs[(i - 1 + tabs.length) % tabs.length]
  if (key === 'Home') return tabs[0]
  if (key === 'End') return tabs.at(-1)
  return undefined
}
