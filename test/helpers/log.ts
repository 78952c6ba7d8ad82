/**
 * The event log as a subscriber of leagues (or a webhook, a push shard) without odds or standings sees it:
 * the fixture records of the live set, in order. Left out: the odds records and the leagues' tables (the
 * gateway's odds and standings pollers append those to the same log; only subscriptions that take them get
 * them) and the records of fixtures outside the live set (a fixture of a day read before kick-off or after its
 * end: only those following its day or the fixture itself get them).
 */
import { inLiveSet } from '../../src/protocol/filter.ts'
import { isChangeRecord, type LiveStore } from '../../src/store/types.ts'

/** Every live-set fixture record after `since` (the whole log without it), with its JSON as stored. */
export async function wholeLog (store: LiveStore, since?: string): Promise<Array<{ cursor: string, json: string }>> {
  const out: Array<{ cursor: string, json: string }> = []
  let cursor = since
  for (;;) {
    const page = await store.readSince(cursor, { limit: 1000 })
    page.records.forEach((rec, i) => { if (isChangeRecord(rec) && inLiveSet(rec)) out.push({ cursor: rec.cursor, json: page.json?.[i] ?? JSON.stringify(rec) }) })
    cursor = page.cursor
    if (!page.more) return out
  }
}

/** The cursor of the log's last live-set fixture record (the head when the log holds none since `since`). */
export async function lastFixtureCursor (store: LiveStore, since?: string): Promise<string> {
  const head = await store.head()
  return (await wholeLog(store, since)).at(-1)?.cursor ?? head
}
