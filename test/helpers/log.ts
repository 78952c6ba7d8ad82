/**
 * The event log as a subscriber without odds sees it: the fixtures' records, the odds records left out
 * (the gateway's odds poller appends those to the same log; only odds subscriptions get them).
 */
import { isOddsRecord, type LiveStore } from '../../src/store/types.ts'

/** Every fixture record after `since` (the whole log without it), with its JSON as stored. */
export async function wholeLog (store: LiveStore, since?: string): Promise<Array<{ cursor: string, json: string }>> {
  const out: Array<{ cursor: string, json: string }> = []
  let cursor = since
  for (;;) {
    const page = await store.readSince(cursor, { limit: 1000 })
    page.records.forEach((rec, i) => { if (!isOddsRecord(rec)) out.push({ cursor: rec.cursor, json: page.json?.[i] ?? JSON.stringify(rec) }) })
    cursor = page.cursor
    if (!page.more) return out
  }
}

/** The cursor of the log's last fixture record (the head when the log holds none since `since`). */
export async function lastFixtureCursor (store: LiveStore, since?: string): Promise<string> {
  const head = await store.head()
  return (await wholeLog(store, since)).at(-1)?.cursor ?? head
}
