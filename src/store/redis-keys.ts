/**
 * Every Redis key and channel the gateway uses, built from one prefix in this one module (as bullmq builds
 * its queue keys), so that a deployment's keys are all found in one place and never collide with another's.
 * No other file writes a key string by hand; Lua scripts get their keys from here too.
 *
 * Hash tags: a per-fixture tag (`{fixture:<id>}`) would let a per-fixture script touch one slot. Our apply
 * script touches the fixture's state AND the deployment-wide event log in one atomic step, so per-fixture tags
 * would put them in different slots and make the script illegal on Redis Cluster. Every store key
 * therefore shares one tag, `{store}`: one slot per deployment, which is what a single ordered log
 * needs anyway (centrifuge's historyStreamKey tags the whole channel for the same reason).
 * Leases are single-key and need no tag.
 */

/** Prefix used when none is configured. @default 'tl:' */
export const DEFAULT_PREFIX = 'tl:'

export interface RedisKeys {
  readonly prefix: string
  /** Hash: `epoch` (random id of the current log) and `offset` (last appended offset). */
  readonly meta: string
  /** Stream: the capped event log; entry ids are `<offset>-0`, fields `f` fixture, `l` league, `r` record JSON. */
  readonly log: string
  /** Hash: fixture id -> stored version. */
  readonly versions: string
  /** Hash: fixture id -> LiveFixture JSON. */
  readonly fixtures: string
  /** Hash: fixture id -> version of its odds image (apart from the fixture's own). */
  readonly oddsVersions: string
  /** Hash: fixture id -> FixtureOdds JSON. */
  readonly odds: string
  /** Hash: league id -> version of its table. */
  readonly standingsVersions: string
  /** Hash: league id -> LeagueStandings JSON. */
  readonly standings: string
  /** Hash: fixture id -> league id, for every fixture in the live index. */
  readonly live: string
  /** Sorted set: fixture id, out of the live index, scored by when it may be forgotten (ms). */
  readonly retired: string
  /** Sorted set: every stored fixture with a kick-off, scored by it (ms): the days' index. */
  readonly schedule: string
  /** Set of live fixture ids of one league. */
  liveLeague: (leagueId: number) => string
  /**
   * `liveLeague(id)` minus the id, for the scripts that must find a league set from a stored league id
   * (the previous league of a fixture). Same slot as the other keys, so this stays Cluster-safe.
   */
  readonly liveLeaguePrefix: string
  /** Pub/sub channel announcing each appended cursor. */
  readonly changesChannel: string
  /** String key of one leadership lease; value = holder id, PX = ttl. */
  lease: (name: string) => string
  /** String key of one status notice (store/status-board.ts), e.g. the poller's state; PX = its ttl. */
  status: (name: string) => string
  /** SCAN MATCH pattern covering every key under this prefix (tests and tooling clean up with it). */
  readonly pattern: string
}

/**
 * Checks a deployment prefix: braces would break the hash tags, glob metacharacters would make the
 * `pattern`s match other deployments' keys.
 */
function checkPrefix (prefix: string): string {
  if (/[{}]/.test(prefix)) throw new TypeError(`redis prefix must not contain braces: ${prefix}`)
  if (/[*?[\]\\]/.test(prefix)) throw new TypeError(`redis prefix must not contain glob characters: ${prefix}`)
  return prefix
}

/** Builds the key set for one deployment prefix. */
export function redisKeys (prefix: string = DEFAULT_PREFIX): RedisKeys {
  checkPrefix(prefix)
  const tagged = `${prefix}{store}:`
  const liveLeaguePrefix = `${tagged}live:`
  return {
    prefix,
    meta: `${tagged}meta`,
    log: `${tagged}log`,
    versions: `${tagged}versions`,
    fixtures: `${tagged}fixtures`,
    oddsVersions: `${tagged}oddsVersions`,
    odds: `${tagged}odds`,
    standingsVersions: `${tagged}standingsVersions`,
    standings: `${tagged}standings`,
    live: `${tagged}live`,
    retired: `${tagged}retired`,
    schedule: `${tagged}schedule`,
    liveLeague: (leagueId) => `${liveLeaguePrefix}${leagueId}`,
    liveLeaguePrefix,
    changesChannel: `${prefix}changes`,
    lease: (name) => `${prefix}lease:${name}`,
    status: (name) => `${prefix}status:${name}`,
    pattern: `${prefix}*`
  }
}

/** Keys of the budget ledger (src/budget): one hash tag, so the ledger's scripts stay in one slot. */
export interface BudgetKeys {
  /** Hash of one entity's bucket: `remaining`, `resetsAt`, `limit` (absent when unknown), `updatedAt`, `estimated`. */
  bucket: (entity: string) => string
  /** Hash of the pollers' claims on one entity's bucket: claimant → JSON `{perHour, reserve, lumps, until}`. */
  claims: (entity: string) => string
  /** Set of every entity with a bucket, for `all()`. */
  readonly entities: string
  /** SCAN MATCH pattern covering every ledger key under this prefix. */
  readonly pattern: string
}

export function budgetKeys (prefix: string = DEFAULT_PREFIX): BudgetKeys {
  const tagged = `${checkPrefix(prefix)}{budget}:`
  return {
    bucket: (entity) => `${tagged}bucket:${entity}`,
    claims: (entity) => `${tagged}claims:${entity}`,
    entities: `${tagged}entities`,
    pattern: `${tagged}*`
  }
}

/** Keys of the REST passthrough (src/passthrough): its response cache and per-client-key quotas. */
export interface PassthroughKeys {
  /** String holding one cached answer, by a digest of the request (a request key can be kilobytes long). */
  cache: (requestDigest: string) => string
  /** Hash of one client key's quota windows: `<entity>:s` (window start, epoch ms) and `<entity>:n` (used). */
  quota: (keyId: string) => string
  /** SCAN MATCH pattern covering every passthrough key under this prefix. */
  readonly pattern: string
}

export function passthroughKeys (prefix: string = DEFAULT_PREFIX): PassthroughKeys {
  checkPrefix(prefix)
  return {
    cache: (requestDigest) => `${prefix}pt:cache:${requestDigest}`,
    quota: (keyId) => `${prefix}pt:quota:${keyId}`,
    pattern: `${prefix}pt:*`
  }
}

/** Keys of webhook delivery (src/webhooks): one hash per endpoint, and its delivery lease. */
export interface WebhookKeys {
  /**
   * Hash of one endpoint (client key name + endpoint id): `cursor` (last acknowledged), `status` (JSON of the
   * worker's last state), `paused` (`1` after failing too long; `0` once resumed).
   */
  endpoint: (keyName: string, endpointId: string) => string
  /** Lease name (for `RedisKeys.lease`) of the one instance that delivers to the endpoint. */
  leaseName: (keyName: string, endpointId: string) => string
  /** SCAN MATCH pattern covering every endpoint hash under this prefix. */
  readonly pattern: string
}

export function webhookKeys (prefix: string = DEFAULT_PREFIX): WebhookKeys {
  checkPrefix(prefix)
  // Key names are free text: encoded so a `:` or a glob character in one cannot reach another's keys.
  const id = (keyName: string, endpointId: string): string => `${encodeURIComponent(keyName).replace(/[*?[\]]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}:${endpointId}`
  return {
    endpoint: (keyName, endpointId) => `${prefix}wh:${id(keyName, endpointId)}`,
    leaseName: (keyName, endpointId) => `wh:${id(keyName, endpointId)}`,
    pattern: `${prefix}wh:*`
  }
}

/**
 * Keys of Web Push alerts (src/webpush): subscriptions by shard, each client key's subscriptions (for its cap)
 * and each token fan's (for theirs), each device's sent alerts and hourly count, each shard's cursor and retry
 * queue. One hash tag, so the scripts that touch several of them stay in one slot.
 */
export interface PushKeys {
  /** Hash of one shard's subscriptions: device id -> subscription JSON. */
  subscriptions: (shard: number) => string
  /** Set of the device ids a client key subscribed (its cap counts them). */
  owner: (keyName: string) => string
  /** `owner(name)` minus the encoded name, for the scripts that find a previous owner's set from a record. */
  readonly ownerPrefix: string
  /** The encoded key name `owner` appends (stored in each record as its owner). */
  ownerId: (keyName: string) => string
  /**
   * Prefix of the sets of the device ids each fan registered with a token (its cap, `max_devices_per_fan`
   * counts them): a fan's set is this, the key's encoded name, `:` and the SHA-1 (hex) of the fan's `sub`,
   * as the scripts name it from a record's `owner` and `fan`.
   */
  readonly fanPrefix: string
  /** Hash: shard -> version, bumped by every write to the shard's subscriptions (workers reload on a change). */
  readonly versions: string
  /** Hash of one device's alerts: alert id -> state (i in flight, r to retry, d delivered, x failed, c capped). */
  sent: (deviceId: string) => string
  /** Sorted set of one device's alerts of the last hour, scored by when they were sent (ms): its hourly cap. */
  recent: (deviceId: string) => string
  /** Hash of one shard's sender: `cursor` (the log position every alert before it was handled). */
  shard: (shard: number) => string
  /** Sorted set of one shard's alerts to send again (`<device id>|<alert id>`), scored by when (ms). */
  retries: (shard: number) => string
  /** Hash of one shard's alerts to send again: `<device id>|<alert id>` -> what to send (JSON). */
  retryData: (shard: number) => string
  /** Lease name (for `RedisKeys.lease`) of the one instance that sends a shard's alerts. */
  leaseName: (shard: number) => string
  /** Sorted set: each sending instance's holder id, scored by its last heartbeat (ms): how many share the shards. */
  readonly instances: string
  /** SCAN MATCH pattern covering every push key under this prefix. */
  readonly pattern: string
}

export function pushKeys (prefix: string = DEFAULT_PREFIX): PushKeys {
  const tagged = `${checkPrefix(prefix)}{push}:`
  const ownerId = (keyName: string): string => encodeURIComponent(keyName).replace(/[*?[\]]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)
  return {
    subscriptions: (shard) => `${tagged}subs:${shard}`,
    owner: (keyName) => `${tagged}owner:${ownerId(keyName)}`,
    ownerPrefix: `${tagged}owner:`,
    ownerId,
    fanPrefix: `${tagged}fan:`,
    versions: `${tagged}versions`,
    sent: (deviceId) => `${tagged}sent:${deviceId}`,
    recent: (deviceId) => `${tagged}recent:${deviceId}`,
    shard: (shard) => `${tagged}shard:${shard}`,
    retries: (shard) => `${tagged}retries:${shard}`,
    retryData: (shard) => `${tagged}retry-data:${shard}`,
    leaseName: (shard) => `push:${shard}`,
    instances: `${tagged}instances`,
    pattern: `${tagged}*`
  }
}
