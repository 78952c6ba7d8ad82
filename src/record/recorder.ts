/**
 * The match-day recorder (`TOUCHLINE_RECORD_DIR`): every response the poller receives (its livescores,
 * `latest` and fixture-by-id calls), written as one JSON line `{ at, path, status, body }` into an hourly file
 * (`touchline-2026-11-24T15.ndjson`, UTC), without host or token (redact.ts). `touchline provider --replay`
 * plays such files back.
 *
 * It wraps the poller's upstream client and never gets in the poll's way: lines are queued and appended in
 * the background; a write error is logged once and that hour's lines are dropped (the next hour's file is
 * tried afresh); nothing it does throws into a poll. `close` writes what is queued and stops recording.
 */
import { appendFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Logger } from 'pino'
import type { PaginateOptions, Query, RequestOptions, UpstreamClient, UpstreamResponse } from '../upstream/index.ts'
import { recordedPath, redactBody } from './redact.ts'

export interface RecorderOptions {
  dir: string
  log?: Logger
  /** Clock of the `at` times and of the hourly rotation. @default Date.now */
  now?: () => number
  /** Strings cut out of every recorded body (the upstream token). */
  secrets?: readonly string[]
  /** Lines held while writes lag behind; past this, new lines are dropped (logged once). @default 10_000 */
  maxQueued?: number
}

export interface RecordedLine {
  /** ISO time the response was received. */
  at: string
  /** Path and query as requested, without host or token. */
  path: string
  status: number
  body: unknown
}

export interface Recorder {
  /** The same client, recording every response its `get` and `paginate` receive. */
  wrap: (upstream: UpstreamClient) => UpstreamClient
  /** Resolves once every line queued so far is written (or dropped after an error). */
  flush: () => Promise<void>
  /** Flushes and stops recording. */
  close: () => Promise<void>
}

/** `touchline-2026-11-24T15.ndjson`: the file of the UTC hour of `iso`. */
export const recordingFile = (iso: string): string => `touchline-${iso.slice(0, 13)}.ndjson`

interface Queued { hour: string, line: string }

export function createRecorder (opts: RecorderOptions): Recorder {
  const now = opts.now ?? Date.now
  const secrets = opts.secrets ?? []
  const maxQueued = opts.maxQueued ?? 10_000
  let queue: Queued[] = []
  let writing: Promise<void> | undefined
  let dirReady = false
  let failedHour: string | undefined
  let overflowLogged = false
  let closed = false

  function record (path: string, query: Query | undefined, status: number, body: unknown): void {
    if (closed) return
    try {
      const at = new Date(now()).toISOString()
      const hour = at.slice(0, 13)
      if (hour === failedHour) return
      if (queue.length >= maxQueued) {
        if (!overflowLogged) opts.log?.warn({ queued: queue.length }, 'recording falls behind; lines dropped')
        overflowLogged = true
        return
      }
      const line: RecordedLine = { at, path: recordedPath(path, query), status, body: redactBody(body, secrets) }
      queue.push({ hour, line: JSON.stringify(line) + '\n' })
      writing ??= drain()
    } catch (err) {
      opts.log?.warn({ err }, 'a response could not be recorded')
    }
  }

  /** Appends the queue hour by hour until it is empty; an hour whose write fails is given up. */
  async function drain (): Promise<void> {
    try {
      while (queue.length > 0) {
        const batch = queue
        queue = []
        overflowLogged = false
        for (const hour of new Set(batch.map((q) => q.hour))) {
          if (hour === failedHour) continue
          await write(hour, batch.filter((q) => q.hour === hour).map((q) => q.line).join(''))
        }
      }
    } finally {
      writing = undefined
    }
  }

  async function write (hour: string, text: string): Promise<void> {
    try {
      if (!dirReady) await mkdir(opts.dir, { recursive: true })
      dirReady = true
      await appendFile(join(opts.dir, recordingFile(hour)), text)
    } catch (err) {
      dirReady = false
      failedHour = hour
      queue = queue.filter((q) => q.hour !== hour)
      opts.log?.warn({ err, dir: opts.dir }, 'recording failed; this hour is not recorded')
    }
  }

  /** Waits for the background writes, including those started while waiting. */
  async function settled (): Promise<void> {
    for (let w = writing; w !== undefined; w = writing) await w
  }

  return {
    wrap (upstream) {
      const get = async <T>(path: string, query?: Query, reqOpts?: RequestOptions): Promise<UpstreamResponse<T>> => {
        const res = await upstream.get<T>(path, query, reqOpts)
        record(path, query, res.status, res.envelope)
        return res
      }
      // Pages after the first follow the API's next-page links: they are recorded under the first page's path.
      async function * paginate<T> (path: string, query?: Query, popts?: PaginateOptions): AsyncIterable<UpstreamResponse<T[]>> {
        for await (const page of upstream.paginate<T>(path, query, popts)) {
          record(path, query, page.status, page.envelope)
          yield page
        }
      }
      return { ...upstream, get, paginate }
    },
    flush: settled,
    async close () {
      closed = true
      await settled()
    }
  }
}
