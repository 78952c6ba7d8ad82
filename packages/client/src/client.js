/**
 * TouchlineClient: the live fixtures an app follows, kept current over one WebSocket, in browsers and in
 * Node 20 (which has no global WebSocket: `ws` is loaded then).
 *
 * What it owns, so an app does not have to:
 * - the fixtures it follows (`fixtures`, a Map by id): a snapshot first (or, resuming from a saved cursor,
 *   every change since it), then every change applied. Change frames come in the compact `delta` format by
 *   default (a fixture's new `version` and the typed changes, applied with applyDelta); a version jump means
 *   a lost frame, healed by subscribing again with `since` the cursor of the last frame applied for that
 *   fixture. A frame older than the fixture held (replays overlap snapshots) is dropped, so no change is seen
 *   twice.
 * - reconnection with capped exponential backoff and jitter, resuming from the last cursor applied: nothing
 *   missed, nothing twice. When the server cannot replay (`replay` recovered:false, e.g. the log was lost) the
 *   fresh snapshot that follows replaces the state held.
 * - giving up, with a reason in plain words, when retrying cannot help: a key refused before the upgrade
 *   (HTTP 401), revoked (close 4001), over its connection limit (close 4029), or `forbidden` for everything
 *   asked. A socket that closes before it opened is diagnosed over HTTP (diagnose.ts).
 *
 * Errors answering a subscribe: `forbidden` drops what the frame lists and asks again for the rest (a subscribe
 * refused for its odds alone, the key lacking the odds feature, is asked again without odds); `internal`
 * (the subscription is active, its read failed) asks again after a second with `since`; `unavailable` needs
 * nothing (the server sends replay recovered:false and a snapshot once its store is back); others are passed
 * on as `error` events.
 */
import { backoffDelay } from '@touchline/core';
import { conflation, cursorAfter, formatOf, gatewayBase, idList, kindList } from "./checks.js";
import { dateList, dayRange, isTimeZone, localTimeZone, MAX_DAYS } from "./days.js";
import { observeServerTime } from '@touchline/core';
import { diagnose, REFUSALS } from "./diagnose.js";
import { completeChanges, eventsOf, nextFixture } from "./frames.js";
import { applyOddsChanges } from '@touchline/core';
/** Leagues, fixtures and teams one connection may follow. */
export const MAX_SUBSCRIPTIONS = 100;
/** How long without any frame after a ping before the connection counts as dead (a half-open socket). */
const DEAD_AFTER_MS = 10_000;
const followed = () => ({ all: false, leagues: new Set(), fixtures: new Set(), teams: new Set(), dates: new Set() });
/** The odds kinds: naming one in `kinds` takes odds. */
const ODDS_KINDS = new Set(['market_removed', 'market_added', 'market_suspended', 'market_reopened', 'odds_changed', 'market_settled', 'odds_stale']);
/** The odds a subscribe names: `odds: true`, odds filters, or odds kinds take them; `odds: false` stops them; else undefined (as before). */
function oddsOf(what) {
    const named = what.odds === true || what.bookmakers !== undefined || what.markets !== undefined || (what.kinds?.some((k) => ODDS_KINDS.has(k)) ?? false);
    if (!named)
        return undefined;
    return { ...(what.bookmakers !== undefined ? { bookmakers: idList(what.bookmakers, 'bookmakers') } : {}), ...(what.markets !== undefined ? { markets: idList(what.markets, 'markets') } : {}) };
}
/** Leagues, fixtures and teams as a subscribe or unsubscribe names them, checked. */
const idsAsked = (what, tz) => ({
    leagues: what.leagues === '*' ? '*' : idList(what.leagues, 'leagues'),
    fixtures: idList(what.fixtures, 'fixtures'),
    teams: idList(what.teams, 'teams'),
    dates: what.dates === undefined ? [] : dateList(what.dates, tz)
});
const idsOf = (list) => Array.isArray(list) ? list.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0) : [];
const someIds = (what) => what.leagues === '*' || what.leagues.length + what.fixtures.length + what.teams.length + what.dates.length > 0;
const env = globalThis;
export class TouchlineClient {
    /** The live fixtures followed, by id: current after every event. */
    fixtures = new Map();
    /** With odds taken (`subscribe({ odds: true })`): each followed fixture's odds image, by fixture id. */
    odds = new Map();
    /** With standings taken (`subscribe({ standings: true })`): each followed league's live table, by league id. */
    standings = new Map();
    /** The last cursor applied: where a reconnection resumes. Save it to resume a later run (option `since`). */
    cursor;
    /** The connection's state; `status` events tell every change of it. */
    status = { state: 'connecting' };
    #base;
    #key;
    #backoff;
    #keepRemovedMs;
    #WebSocket;
    /** Where signed connection tokens come from, instead of a key (docs/tokens.md). */
    #getToken;
    /** The token of the current connection (token mode). */
    #token;
    /** When the current token expires, epoch ms, as `authorized` said. */
    #tokenExpiresAt = 0;
    #refreshTimer;
    /** The server's words when it refused the first frame's token: said when the client stops. */
    #tokenRefusal;
    /** Cursor of the last frame applied per fixture: where to heal a lost one from. */
    #appliedAt = new Map();
    /** What the connection follows; sent whole (with `since`) on every connection. */
    #wanted = followed();
    /** The time zone of the days followed. */
    #tz = localTimeZone();
    #kinds;
    /** The odds taken: undefined for none, else every bookmaker and market or those listed. */
    #odds;
    /** Whether the leagues' live tables are taken. */
    #standings = false;
    /** What `subscribe({ odds: false, standings: false })` gave up: said once (`odds: false`, `standings: false`) on the next subscribe sent. */
    #givenUp = {};
    #format;
    /** Odds conflation asked for, ms (`subscribe({ conflateMs })`); undefined: the server's default (none). */
    #conflateMs;
    /** Cursor of the last odds frame applied per fixture: where to heal a lost one from. */
    #oddsAppliedAt = new Map();
    /** What was added while no connection was up, after a first state: subscribed apart, with a snapshot. */
    #unsynced = followed();
    /** Whether the client has held a state (a snapshot or a resume): before that, everything is asked with `since`. */
    #synced = false;
    /** Fixtures forgotten by unsubscribe: frames for them still in flight are dropped, not healed. */
    #dropped = new Set();
    #waiting = new Set();
    #listeners = new Map();
    #ws;
    /** Hello received on the current socket: frames may be sent. */
    #open = false;
    #attempt = 0;
    #refs = 0;
    #started = false;
    #stopped = false;
    #replayLeft = 0;
    #replayCursor;
    #replayRef;
    /** Ref of the subscribe asking for the whole subscription, until its state has arrived. */
    #syncing;
    /** Ref of the subscribe sent to heal a lost frame, while it is under way (one at a time is enough). */
    #healing;
    /**
     * Ref of a resume with nothing held (a new process started with `since`), until its replay is in: it asks for
     * the snapshot and the changes since the cursor together, and its snapshot comes first.
     */
    #resuming;
    /**
     * Per fixture whose state came from a resume's snapshot: the cursor after which its changes have not been
     * emitted. The snapshot is read after the replay, so it may already show changes whose frames follow it:
     * those are emitted (once) without being applied. Dropped once a frame of the fixture applies.
     */
    #emitFrom = new Map();
    #requests = new Map();
    #lastFrameAt = 0;
    /** Counts connection attempts: an answer (diagnosis, retry) for an older one is stale. */
    #generation = 0;
    #retryTimer;
    #heartbeat;
    /** Back online (browsers): retry at once instead of waiting out the backoff, unless a socket is trying. */
    #online = () => {
        if ((this.status.state === 'reconnecting' || this.status.state === 'offline') && this.#ws === undefined)
            this.reconnectNow();
    };
    /**
     * @throws TypeError for a `url` that is not the gateway's http(s) address (`127.0.0.1:8080` has no scheme) or a
     * `key` that is not a non-empty string
     */
    constructor(opts) {
        this.#base = gatewayBase(opts.url);
        if (opts.getToken !== undefined && typeof opts.getToken !== 'function')
            throw new TypeError('getToken must be a function returning a signed connection token');
        if (opts.getToken !== undefined && opts.key !== undefined)
            throw new TypeError('give key or getToken, not both');
        if (opts.getToken === undefined && (typeof opts.key !== 'string' || opts.key === ''))
            throw new TypeError(`key must be a client key, a non-empty string (got ${JSON.stringify(opts.key)})`);
        if (opts.since !== undefined && typeof opts.since !== 'string')
            throw new TypeError(`since must be a cursor saved from client.cursor (got ${JSON.stringify(opts.since)})`);
        this.#key = opts.key ?? '';
        this.#getToken = opts.getToken;
        this.#WebSocket = opts.WebSocket;
        this.#backoff = { baseMs: opts.backoff?.baseMs ?? 500, capMs: opts.backoff?.capMs ?? 15_000, jitter: opts.backoff?.jitter ?? 'equal' };
        this.#keepRemovedMs = opts.keepRemovedMs ?? 0;
        this.cursor = opts.since;
    }
    /** Adds a listener; returns a function that removes it. */
    on(type, listener) {
        let set = this.#listeners.get(type);
        if (set === undefined)
            this.#listeners.set(type, set = new Set());
        set.add(listener);
        return () => this.off(type, listener);
    }
    off(type, listener) {
        this.#listeners.get(type)?.delete(listener);
    }
    /** A listener that throws must not leave the state half-updated: its error is rethrown on its own. */
    #emit(type, payload) {
        for (const listener of [...this.#listeners.get(type) ?? []]) {
            try {
                listener(payload);
            }
            catch (err) {
                queueMicrotask(() => { throw err; });
            }
        }
    }
    /**
     * Follows more: leagues (ids or `"*"`: every league the key may see, later ones too), fixtures, teams;
     * `kinds` narrows the changes delivered (format `full`, the default with kinds); `format` defaults to
     * `delta`. Before connect() it only adds to what the first subscribe asks (with `since` when given).
     * @throws TypeError for `kinds` with format `delta` (the type refuses it too), an id that is not one, a kind
     * the protocol does not have, a format other than `full` and `delta`
     * @throws RangeError for `conflateMs` outside 0 to 10,000, or more than MAX_SUBSCRIPTIONS leagues, fixtures
     * and teams in all
     */
    subscribe(what = {}) {
        if (what.tz !== undefined) {
            if (!isTimeZone(what.tz))
                throw new TypeError(`tz must be an IANA time zone, e.g. Europe/London (got ${JSON.stringify(what.tz)})`);
            if (what.tz !== this.#tz && this.#wanted.dates.size > 0)
                throw new TypeError(`the days followed are in ${this.#tz}: unsubscribe them before following days in ${what.tz}`);
        }
        const tz = what.tz ?? this.#tz;
        const add = idsAsked(what, tz);
        if (what.kinds !== undefined)
            kindList(what.kinds);
        formatOf(what.format);
        if (what.conflateMs !== undefined)
            conflation(what.conflateMs);
        this.#checkCount(add);
        const kinds = what.kinds ?? this.#kinds;
        const odds = what.odds === false ? undefined : oddsOf(what) ?? this.#odds;
        const narrowed = kinds !== undefined || odds?.bookmakers !== undefined || odds?.markets !== undefined;
        const format = what.format ?? (narrowed ? 'full' : this.#format);
        if (format === 'delta' && narrowed)
            throw new TypeError('kinds, bookmakers and markets need format "full": a delta applies to the previous version, so every change must arrive');
        // Added while no connection is up, after a first state: the resume replay alone would not give their
        // state, so the next connection subscribes them apart, with a snapshot.
        this.#tz = tz;
        for (const set of this.#open || !this.#synced ? [this.#wanted] : [this.#wanted, this.#unsynced]) {
            if (add.leagues === '*')
                set.all = true;
            else
                for (const id of add.leagues)
                    set.leagues.add(id);
            for (const id of add.fixtures)
                set.fixtures.add(id);
            for (const id of add.teams)
                set.teams.add(id);
            for (const date of add.dates)
                set.dates.add(date);
        }
        if (what.kinds !== undefined)
            this.#kinds = [...what.kinds];
        if (odds === undefined && this.#odds !== undefined)
            this.#stopOdds();
        this.#odds = odds;
        if (what.standings === false && this.#standings)
            this.#stopStandings();
        else if (what.standings === true || what.kinds?.includes('standings_changed') === true)
            this.#standings = true;
        if (what.conflateMs !== undefined)
            this.#conflateMs = what.conflateMs;
        if (format !== undefined)
            this.#format = format;
        if (this.#open)
            this.#request('more', add, { snapshot: true });
        return this;
    }
    /**
     * Follows less. The fixtures no longer followed (by any league, fixture or team left) are forgotten at once,
     * each with a `fixture` event (removed: true), and frames for them still on the way are dropped.
     */
    unsubscribe(what = {}) {
        const drop = idsAsked(what, this.#tz);
        for (const set of [this.#wanted, this.#unsynced]) {
            if (drop.leagues === '*')
                set.all = false;
            else
                for (const id of drop.leagues)
                    set.leagues.delete(id);
            for (const id of drop.fixtures)
                set.fixtures.delete(id);
            for (const id of drop.teams)
                set.teams.delete(id);
            for (const date of drop.dates)
                set.dates.delete(date);
        }
        if (this.#open) {
            this.#send({
                op: 'unsubscribe',
                ref: `unsub-${++this.#refs}`,
                ...(drop.leagues === '*' || drop.leagues.length > 0 ? { leagues: drop.leagues } : {}),
                ...(drop.fixtures.length > 0 ? { fixtures: drop.fixtures } : {}),
                ...(drop.teams.length > 0 ? { teams: drop.teams } : {}),
                ...(drop.dates.length > 0 ? { dates: drop.dates } : {})
            });
        }
        for (const [id, f] of this.fixtures) {
            if (this.follows(f))
                continue;
            this.#forgetFixture(id);
            this.#dropped.add(id);
            this.#emit('fixture', { fixture: f, removed: true });
        }
        for (const id of this.standings.keys())
            if (!this.#wanted.all && !this.#wanted.leagues.has(id))
                this.standings.delete(id);
        return this;
    }
    /** Throws when following `add` too would pass the gateway's limit of ids per connection. */
    #checkCount(add) {
        const w = this.#wanted;
        const count = (ids, held) => ids === '*' ? held.size : new Set([...held, ...ids]).size;
        const total = count(add.leagues, w.leagues) + count(add.fixtures, w.fixtures) + count(add.teams, w.teams);
        if (total > MAX_SUBSCRIPTIONS)
            throw new RangeError(`a connection follows at most ${MAX_SUBSCRIPTIONS} leagues, fixtures and teams in all (this would make ${total}); leagues: '*' follows every league`);
        const days = new Set([...w.dates, ...add.dates]).size;
        if (days > MAX_DAYS)
            throw new RangeError(`a connection follows at most ${MAX_DAYS} days (this would make ${days})`);
    }
    /** What the client follows now (after `forbidden` answers dropped what the key may not see), and its kinds filter. */
    get subscription() {
        return { ...this.#everything(), tz: this.#tz, ...(this.#kinds !== undefined ? { kinds: [...this.#kinds] } : {}), ...this.#oddsFields(), ...(this.#standings ? { standings: true } : {}) };
    }
    /** Odds given up: the images held go, and the gateway is told with the next subscribe. */
    #stopOdds() {
        this.#givenUp.odds = false;
        this.odds.clear();
        this.#oddsAppliedAt.clear();
    }
    /** Tables given up: those held go, and the gateway is told with the next subscribe. */
    #stopStandings() {
        this.#standings = false;
        this.#givenUp.standings = false;
        this.standings.clear();
    }
    /** The odds fields of a subscribe, when odds are taken. */
    #oddsFields() {
        const odds = this.#odds;
        if (odds === undefined)
            return {};
        return { odds: true, ...(odds.bookmakers !== undefined ? { bookmakers: [...odds.bookmakers] } : {}), ...(odds.markets !== undefined ? { markets: [...odds.markets] } : {}) };
    }
    /** Whether what is followed takes in this fixture: by its league, id or teams, or its kick-off in a day followed. */
    follows(f) {
        const w = this.#wanted;
        return w.all || w.leagues.has(f.league_id) || w.fixtures.has(f.id) ||
            (f.home !== undefined && w.teams.has(f.home.id)) || (f.away !== undefined && w.teams.has(f.away.id)) || this.#inDays(f);
    }
    /** Whether the fixture is held for itself or its day, live or not: followed by id, or kicking off in a day followed. */
    #heldOutsideLive(f) {
        return this.#wanted.fixtures.has(f.id) || this.#inDays(f);
    }
    #inDays(f) {
        if (this.#wanted.dates.size === 0 || typeof f.starting_at !== 'string')
            return false;
        const ms = Date.parse(f.starting_at);
        for (const date of this.#wanted.dates) {
            const { from, to } = dayRange(date, this.#tz);
            if (ms >= from && ms < to)
                return true;
        }
        return false;
    }
    /**
     * Opens the connection (once; later calls only wait). Resolves with the status once the client is live,
     * that is once the first state has been applied (the snapshot, or every change since `since`), so
     * `fixtures` is complete; or once it is refused, or when close() is called first (state `closed`). Never
     * rejects.
     */
    async connect() {
        if (!this.#started) {
            this.#started = true;
            env.addEventListener?.('online', this.#online);
            this.#connectSocket().catch(() => { });
        }
        return await new Promise((resolve) => {
            if (this.status.state === 'live' || this.#stopped)
                return resolve(this.status);
            const done = (s) => { off(); this.#waiting.delete(done); resolve(s); };
            const off = this.on('status', (s) => { if (s.state === 'live' || s.state === 'refused')
                done(s); });
            this.#waiting.add(done);
        });
    }
    /** Closes the connection for good (no status event: the caller knows; a connect() still waiting resolves with state `closed`). */
    close() {
        this.#stopped = true;
        env.removeEventListener?.('online', this.#online);
        clearTimeout(this.#retryTimer);
        if (this.#ws !== undefined)
            this.#detach(this.#ws, 1000);
        if (this.status.state !== 'refused')
            this.status = { state: 'closed' };
        for (const done of [...this.#waiting])
            done(this.status);
    }
    /** Retries at once, without waiting out the backoff. */
    reconnectNow() {
        clearTimeout(this.#retryTimer);
        this.#connectSocket().catch(() => { });
    }
    /**
     * The token of the current connection (with `getToken`; undefined before the first or with a key), for the
     * gateway's HTTP endpoints: `Authorization: Bearer <token>` keeps it out of addresses.
     */
    get token() {
        return this.#token;
    }
    /** Query string with the key (or the current token), for the gateway's HTTP endpoints. */
    query(extra = '') {
        if (this.#getToken !== undefined)
            return `access_token=${encodeURIComponent(this.#token ?? '')}${extra}`;
        return `api_token=${encodeURIComponent(this.#key)}${extra}`;
    }
    async #connectSocket() {
        if (this.#stopped)
            return;
        // Never two sockets: a stray one would count against the key's connections and keep its heartbeat.
        if (this.#ws !== undefined)
            this.#detach(this.#ws);
        const generation = ++this.#generation;
        this.#open = false;
        this.#requests.clear();
        this.#healing = undefined;
        this.#syncing = undefined;
        this.#setStatus({ state: this.#synced || this.#attempt > 0 ? 'reconnecting' : 'connecting' });
        const WebSocketImpl = this.#WebSocket ?? env.WebSocket ?? (this.#WebSocket = (await import('ws')).WebSocket);
        if (this.#stopped || generation !== this.#generation)
            return;
        const tokenMode = this.#getToken !== undefined;
        this.#tokenExpiresAt = 0;
        if (tokenMode && !(await this.#freshToken(generation)))
            return;
        // With tokens, the token goes in the first frame, never in the address.
        const ws = new WebSocketImpl(`${this.#base.replace(/^http/, 'ws')}/v1/live?${tokenMode ? 'auth=frame' : this.query()}`);
        this.#ws = ws;
        let opened = false;
        ws.onopen = () => {
            opened = true;
            this.#lastFrameAt = Date.now();
            if (tokenMode)
                ws.send(JSON.stringify({ op: 'auth', ref: 'auth', token: this.#token }));
        };
        ws.onerror = () => { }; // the close that follows says what happened (and `ws` throws on an unheard error)
        ws.onmessage = (ev) => {
            this.#lastFrameAt = Date.now();
            let frame;
            try {
                frame = JSON.parse(String(ev.data));
            }
            catch {
                return;
            }
            this.#handle(frame);
        };
        ws.onclose = (ev) => {
            if (this.#ws !== ws)
                return;
            this.#forgetSocket(ws);
            this.#closed(ev.code, opened).catch(() => { });
        };
    }
    /**
     * Asks getToken for the token of the next connection; false when it threw (another attempt is scheduled,
     * with the backoff) or the attempt is stale.
     */
    async #freshToken(generation) {
        this.#tokenRefusal = undefined;
        try {
            const token = await this.#getToken();
            if (typeof token !== 'string' || token === '')
                throw new TypeError('getToken gave no token');
            this.#token = token;
        }
        catch (err) {
            if (this.#stopped || generation !== this.#generation)
                return false;
            this.#emit('error', { code: 'token_unavailable', message: `getToken failed: ${err instanceof Error ? err.message : String(err)}` });
            this.#retry(undefined);
            return false;
        }
        return !this.#stopped && generation === this.#generation;
    }
    /** `authorized`: the token is good until `expires_at`; a new one is asked for before then. */
    #authorized(expiresAt) {
        const before = this.#tokenExpiresAt;
        this.#tokenExpiresAt = Date.parse(expiresAt);
        clearTimeout(this.#refreshTimer);
        // A renewal that moved nothing (getToken gave the same token again) is not tried in a loop: the gateway
        // closes with 4401 after its grace, and the next connection asks for a new one.
        if (this.#tokenExpiresAt === before)
            return;
        const left = this.#tokenExpiresAt - Date.now();
        // A quarter of its life before it ends, at most 30 s before: a token of an hour is renewed 30 s before.
        this.#refreshTimer = setTimeout(() => { this.#refreshToken().catch(() => { }); }, Math.max(0, left - Math.min(30_000, left / 4)));
    }
    /** Sends a new token over the open connection; a failed getToken is tried again while the token lasts. */
    async #refreshToken() {
        const ws = this.#ws;
        if (ws === undefined || this.#stopped)
            return;
        let token;
        try {
            token = await this.#getToken();
        }
        catch (err) {
            this.#emit('error', { code: 'token_unavailable', message: `getToken failed: ${err instanceof Error ? err.message : String(err)}` });
            const left = this.#tokenExpiresAt - Date.now();
            if (left > 1000 && this.#ws === ws)
                this.#refreshTimer = setTimeout(() => { this.#refreshToken().catch(() => { }); }, Math.min(5_000, left / 2));
            return;
        }
        if (this.#ws !== ws || this.#stopped)
            return;
        this.#token = token;
        this.#send({ op: 'auth', ref: 'refresh', token });
    }
    /** Forgets a socket: no more events from it, its heartbeat stopped, closed. */
    #detach(ws, code = 1000, reason = '') {
        ws.onopen = ws.onmessage = ws.onclose = null;
        ws.onerror = () => { };
        try {
            ws.close(code, reason);
        }
        catch { }
        this.#forgetSocket(ws);
    }
    #forgetSocket(ws) {
        clearInterval(this.#heartbeat);
        clearTimeout(this.#refreshTimer);
        this.#heartbeat = undefined;
        this.#open = false;
        if (this.#ws === ws)
            this.#ws = undefined;
    }
    #handle(frame) {
        switch (frame.type) {
            case 'authorized': return this.#authorized(String(frame.expires_at));
            case 'hello': return this.#hello(frame.heartbeat_ms ?? 0);
            case 'subscribed':
                this.#attempt = 0;
                return;
            case 'snapshot': return this.#snapshot(frame);
            case 'replay': return this.#replay(frame);
            case 'change': return this.#change(frame);
            case 'odds': return this.#oddsFrame(frame);
            case 'standings': return this.#standingsFrame(frame);
            case 'error': return this.#failed(frame);
            default:
        }
    }
    #hello(heartbeatMs) {
        this.#open = true;
        // First time: the current state (or the changes since `since`). After a drop: everything since the last
        // applied change, then live.
        if (this.#following())
            this.#resubscribe();
        else
            this.#live();
        // The server pings at the protocol level, which browsers do not show; this ping catches a half-open
        // connection on our side too. Judged on the last ping's answer: background tabs run timers late.
        let pingedAt = 0;
        clearInterval(this.#heartbeat);
        this.#heartbeat = setInterval(() => {
            if (pingedAt > this.#lastFrameAt && Date.now() - pingedAt > DEAD_AFTER_MS) {
                const ws = this.#ws;
                if (ws !== undefined)
                    this.#detach(ws, 4000, 'heartbeat timeout');
                this.#closed(4000, true).catch(() => { });
                return;
            }
            pingedAt = Date.now();
            this.#send({ op: 'ping', ref: 'hb' });
        }, Math.max(1000, heartbeatMs || 25_000));
    }
    /** The state held is current: connect() resolves. */
    #live() {
        this.#attempt = 0;
        this.#synced = true;
        this.#syncing = undefined;
        if (this.status.state !== 'live')
            this.#setStatus({ state: 'live' });
    }
    /** Whether anything is followed. */
    #following() {
        const w = this.#wanted;
        return w.all || w.leagues.size + w.fixtures.size + w.teams.size + w.dates.size > 0;
    }
    /**
     * The connection's whole subscription again: from the last cursor when there is one, else with a snapshot;
     * what was added while no connection was up comes apart, with its snapshot.
     */
    #resubscribe() {
        const w = this.#wanted;
        const u = this.#unsynced;
        this.#unsynced = followed();
        if (this.cursor === undefined) {
            this.#syncing = this.#request('sub', this.#everything(), { snapshot: true });
            return;
        }
        if (!this.#synced) {
            // A resume with nothing held (a new process started with `since`): the current state and every change
            // after the cursor, together. A replay alone would leave out the fixtures that did not change since.
            this.#syncing = this.#resuming = this.#request('sub', this.#everything(), { since: this.cursor, snapshot: true });
            return;
        }
        const known = {
            leagues: w.all && !u.all ? '*' : [...w.leagues].filter((id) => !u.leagues.has(id)),
            fixtures: [...w.fixtures].filter((id) => !u.fixtures.has(id)),
            teams: [...w.teams].filter((id) => !u.teams.has(id)),
            dates: [...w.dates].filter((d) => !u.dates.has(d))
        };
        const fresh = { leagues: u.all ? '*' : [...u.leagues], fixtures: [...u.fixtures], teams: [...u.teams], dates: [...u.dates] };
        if (someIds(known))
            this.#syncing = this.#request('sub', known, { since: this.cursor, snapshot: false });
        if (someIds(fresh))
            this.#request('more', fresh, { snapshot: true });
        if (!someIds(known))
            this.#live();
    }
    /** Everything followed, as a subscribe asks it. */
    #everything() {
        const w = this.#wanted;
        return { leagues: w.all ? '*' : [...w.leagues], fixtures: [...w.fixtures], teams: [...w.teams], dates: [...w.dates] };
    }
    /** Sends a subscribe and remembers what it asked (to answer its errors). */
    #request(kind, what, how) {
        const ref = `${kind}-${++this.#refs}`;
        const frame = {
            op: 'subscribe',
            ref,
            ...(what.leagues === '*' || what.leagues.length > 0 ? { leagues: what.leagues } : {}),
            ...(what.fixtures.length > 0 ? { fixtures: what.fixtures } : {}),
            ...(what.teams.length > 0 ? { teams: what.teams } : {}),
            ...(what.dates.length > 0 ? { dates: what.dates, tz: this.#tz } : {}),
            ...(this.#kinds !== undefined ? { kinds: this.#kinds } : {}),
            ...this.#givenUp,
            ...this.#oddsFields(),
            ...(this.#standings ? { standings: true } : {}),
            ...(this.#conflateMs !== undefined ? { conflate_ms: this.#conflateMs } : {}),
            format: this.#format ?? (this.#kinds !== undefined || this.#odds?.bookmakers !== undefined || this.#odds?.markets !== undefined ? 'full' : 'delta'),
            ...how
        };
        this.#requests.set(ref, { kind, ...what, how, odds: frame.odds === true || (frame.kinds?.some((k) => ODDS_KINDS.has(k)) ?? false) });
        this.#givenUp = {};
        this.#send(frame);
        return ref;
    }
    #snapshot(frame) {
        // A snapshot answering an addition joins the state; any other (the whole subscription's, or the one after
        // replay recovered:false, which has no ref) replaces it.
        const partial = typeof frame.ref === 'string' && frame.ref.startsWith('more-');
        // A resume's snapshot (the replay follows it): the changes since the cursor are still to be emitted, so the
        // cursor stays where it was until they are in.
        const resuming = frame.ref !== undefined && frame.ref === this.#resuming;
        const since = resuming ? this.cursor : undefined;
        if (frame.ref === this.#healing)
            this.#healing = undefined;
        if (!partial) {
            const kept = new Set(frame.fixtures.map((f) => f.id));
            for (const [id, f] of this.fixtures) {
                if (kept.has(id))
                    continue;
                this.#forgetFixture(id);
                this.#emit('fixture', { fixture: f, removed: true });
            }
            if (since === undefined)
                this.cursor = frame.cursor;
            // The whole subscription's state: frames sent before it (for fixtures let go) are behind it on the socket.
            this.#dropped.clear();
            this.#emitFrom.clear();
        }
        for (const f of frame.fixtures) {
            this.fixtures.set(f.id, f);
            this.#appliedAt.set(f.id, since ?? frame.cursor);
            if (since !== undefined)
                this.#emitFrom.set(f.id, since);
            this.#dropped.delete(f.id);
        }
        if (frame.odds !== undefined && this.#odds !== undefined) {
            // The images come with the fixtures they belong to: a whole snapshot's replace every image held.
            if (!partial)
                this.odds.clear();
            for (const image of frame.odds)
                this.#takeOdds(image, frame.cursor);
        }
        if (frame.standings !== undefined && this.#standings) {
            if (!partial)
                this.standings.clear();
            for (const table of frame.standings)
                this.standings.set(table.league_id, table);
        }
        this.#emit('snapshot', { partial, fixtures: frame.fixtures, ...(frame.odds !== undefined ? { odds: frame.odds } : {}), ...(frame.standings !== undefined ? { standings: frame.standings } : {}), resuming });
        for (const f of frame.fixtures)
            this.#emit('fixture', { fixture: f, removed: false });
        if (!partial && !resuming && this.#syncing !== undefined && (frame.ref === this.#syncing || frame.ref === undefined))
            this.#live();
    }
    #replay(frame) {
        // A resume that cannot replay: the snapshot that follows is the new state, not the replay's start.
        if (!frame.recovered && frame.ref === this.#resuming) {
            this.#resuming = undefined;
            this.#emitFrom.clear();
        }
        // recovered:false: a fresh snapshot follows and replaces the state (see #snapshot).
        this.#replayLeft = frame.recovered ? frame.count : 0;
        // Once the replay's changes are in, everything up to its cursor was received or filtered out.
        this.#replayCursor = frame.recovered ? frame.cursor : undefined;
        this.#replayRef = frame.ref;
        if (frame.recovered && frame.count === 0)
            this.#replayDone();
    }
    #replayDone() {
        if (this.#replayCursor !== undefined)
            this.cursor = this.#replayCursor;
        this.#replayCursor = undefined;
        if (this.#replayRef === this.#healing)
            this.#healing = undefined;
        if (this.#replayRef === this.#resuming)
            this.#resuming = undefined;
        if (this.#replayRef !== undefined && this.#replayRef === this.#syncing)
            this.#live();
    }
    #change(frame) {
        const replayed = this.#replayLeft > 0;
        if (replayed)
            this.#replayLeft--;
        observeServerTime(frame.at);
        this.#take(frame, replayed);
        if (replayed && this.#replayLeft === 0)
            this.#replayDone();
    }
    /** An odds frame: applied to the image held (or replacing it), counted in a replay like a change frame. */
    #oddsFrame(frame) {
        const replayed = this.#replayLeft > 0;
        if (replayed)
            this.#replayLeft--;
        observeServerTime(frame.at);
        const id = frame.fixture_id;
        // Sent before the gateway read a subscribe that gave odds up: not taken.
        if (!this.#dropped.has(id) && this.#odds !== undefined) {
            const held = this.odds.get(id);
            const next = 'odds' in frame
                ? (held !== undefined && frame.odds.version <= held.version ? 'stale' : frame.odds)
                : held !== undefined && frame.version <= held.version
                    ? 'stale'
                    : held === undefined || (frame.from_version ?? frame.version - 1) !== held.version ? 'gap' : applyOddsChanges(held, frame);
            if (next === 'gap')
                this.#lost(id, this.#oddsAppliedAt.get(id));
            else if (next !== 'stale') {
                this.cursor = frame.cursor;
                this.#takeOdds(next, frame.cursor);
                this.#emit('odds', { odds: next, changes: frame.changes, cursor: frame.cursor, at: frame.at, replayed });
            }
        }
        if (replayed && this.#replayLeft === 0)
            this.#replayDone();
    }
    /**
     * A league's table changed: it replaces the one held unless that one is as new (a snapshot read after the
     * frame was sent), counted in a replay like a change frame. Tables go whole: nothing to heal.
     */
    #standingsFrame(frame) {
        const replayed = this.#replayLeft > 0;
        if (replayed)
            this.#replayLeft--;
        observeServerTime(frame.at);
        const held = this.standings.get(frame.league_id);
        const followed = this.#standings && (this.#wanted.all || this.#wanted.leagues.has(frame.league_id));
        if (followed && (held === undefined || frame.standings.version > held.version)) {
            this.cursor = frame.cursor;
            this.standings.set(frame.league_id, frame.standings);
            this.#emit('standings', { standings: frame.standings, changes: frame.changes, cursor: frame.cursor, at: frame.at, replayed });
        }
        if (replayed && this.#replayLeft === 0)
            this.#replayDone();
    }
    #takeOdds(image, cursor) {
        this.odds.set(image.fixture_id, image);
        this.#oddsAppliedAt.set(image.fixture_id, cursor);
    }
    #take(frame, replayed) {
        const id = frame.fixture_id;
        if (this.#dropped.has(id)) {
            // Unsubscribed: sent before the server heard it. Followed again (a new subscribe, a full frame): take it.
            if (!('fixture' in frame) || !this.follows(frame.fixture))
                return;
            this.#dropped.delete(id);
        }
        const next = nextFixture(this.fixtures.get(id), frame);
        if (next.status === 'gap')
            this.#lost(id);
        else if (next.status === 'stale')
            this.#shown(frame, replayed);
        else {
            this.#emitFrom.delete(id);
            this.#applied(frame, next.fixture, replayed);
        }
    }
    /**
     * A frame the fixture held already shows: dropped, unless it is a change of a resume's snapshot that has not
     * been emitted (see #emitFrom). Such a frame comes whole: it is emitted once, with the fixture as it was
     * after it, and the state held stays.
     */
    #shown(frame, replayed) {
        const id = frame.fixture_id;
        const from = this.#emitFrom.get(id);
        if (from === undefined || !('fixture' in frame) || !cursorAfter(frame.cursor, from))
            return;
        this.#emitFrom.set(id, frame.cursor);
        this.#appliedAt.set(id, frame.cursor);
        this.cursor = frame.cursor;
        this.#emit('change', { frame, fixture: frame.fixture, replayed });
        for (const [type, payload] of eventsOf(frame.changes, frame.fixture, undefined, replayed)) {
            if (type === 'state')
                this.#emit('state', payload);
            else
                this.#emit('goal', payload);
        }
    }
    #applied(frame, fixture, replayed) {
        const id = frame.fixture_id;
        const previous = this.fixtures.get(id);
        this.cursor = frame.cursor;
        this.#appliedAt.set(id, frame.cursor);
        this.fixtures.set(id, fixture);
        // A delta is handed out as a full frame: with the fixture after it and every change's previous values.
        const full = 'fixture' in frame
            ? frame
            : { ...frame, changes: completeChanges(frame.changes, previous, fixture), fixture };
        this.#emit('change', { frame: full, fixture, replayed });
        for (const [type, payload] of eventsOf(full.changes, fixture, previous, replayed)) {
            if (type === 'state')
                this.#emit('state', payload);
            else
                this.#emit('goal', payload);
        }
        // A kick-off moved out of every day followed (and nothing else follows the fixture): it leaves `fixtures`.
        if (!this.follows(fixture)) {
            this.#forgetFixture(id);
            this.#emit('fixture', { fixture, removed: true });
            return;
        }
        this.#emit('fixture', { fixture, removed: false });
        // Out of the live set, a fixture of a day followed stays: it is still in its day.
        if (frame.changes.some((c) => c.kind === 'fixture_removed') && !this.#heldOutsideLive(fixture))
            setTimeout(() => this.#expire(id, fixture.version), this.#keepRemovedMs);
    }
    /** A fixture that left the live set (usually full time), dropped unless it changed again since. */
    #expire(id, version) {
        const f = this.fixtures.get(id);
        if (f?.version !== version || this.#heldOutsideLive(f))
            return;
        this.#forgetFixture(id);
        this.#emit('fixture', { fixture: f, removed: true });
    }
    #forgetFixture(id) {
        this.fixtures.delete(id);
        this.#appliedAt.delete(id);
        this.odds.delete(id);
        this.#oddsAppliedAt.delete(id);
    }
    /**
     * A delta skipped a version of the fixture: a frame was lost. Everything since the last frame applied for it
     * is asked again (a snapshot when none was); the replay's full frames put the fixture right.
     */
    #lost(fixtureId, since = this.#appliedAt.get(fixtureId) ?? this.cursor) {
        if (this.#healing !== undefined)
            return; // the replay under way covers this frame too
        // A fixture never held (a delta or a removal for it): the replay from the client's cursor brings its frames
        // whole, so its changes are emitted, not just its state taken from a snapshot.
        this.#healing = this.#request('sub', this.#everything(), since === undefined ? { snapshot: true } : { since, snapshot: false });
    }
    #failed(frame) {
        // The first frame's token refused: the close that follows (4401, 4403) decides; its words are kept.
        if (frame.ref === 'auth') {
            this.#tokenRefusal = { code: frame.code, message: frame.message };
            return;
        }
        const asked = typeof frame.ref === 'string' ? this.#requests.get(frame.ref) : undefined;
        if (frame.code === 'internal' && asked !== undefined) {
            const ws = this.#ws;
            setTimeout(() => {
                if (this.#ws !== ws || this.#stopped)
                    return;
                const ref = asked.kind === 'more' || this.cursor === undefined
                    ? this.#request(asked.kind, asked, { snapshot: true })
                    : this.#request('sub', asked, { since: this.cursor, snapshot: false });
                if (frame.ref === this.#syncing)
                    this.#syncing = ref;
            }, 1000);
            return;
        }
        if (frame.code === 'forbidden')
            return this.#forbidden(frame, asked);
        if (frame.code === 'unavailable')
            return;
        this.#emit('error', { code: frame.code, message: frame.message ?? '', ...(frame.ref !== undefined ? { ref: frame.ref } : {}) });
        // The whole subscription refused outright (a gateway with a lower limit, or one that does not know what was
        // asked): the state connect() waits for can never come, and asking again would be refused the same way.
        if (frame.ref !== undefined && frame.ref === this.#syncing) {
            const reason = frame.code === 'limit_exceeded' ? 'limit_exceeded' : 'invalid_subscription';
            this.#refuse(reason, `${REFUSALS[reason]} The gateway said: ${frame.message ?? frame.code}`);
        }
    }
    /**
     * Drops what a `forbidden` frame lists (all of the request's leagues when it lists nothing) and asks again for
     * the rest; stops when nothing is left to follow.
     */
    #forbidden(frame, asked) {
        // Refused for its odds alone (a key without the odds feature: the frame lists no ids): the rest stands.
        if (asked?.odds === true && frame.leagues === undefined && frame.fixtures === undefined && frame.teams === undefined)
            return this.#oddsRefused(frame, asked);
        const listed = { leagues: idsOf(frame.leagues), fixtures: idsOf(frame.fixtures), teams: idsOf(frame.teams) };
        if (listed.leagues.length + listed.fixtures.length + listed.teams.length === 0 && asked !== undefined && asked.leagues !== '*')
            listed.leagues = asked.leagues;
        for (const id of listed.leagues)
            this.#wanted.leagues.delete(id);
        for (const id of listed.fixtures)
            this.#wanted.fixtures.delete(id);
        for (const id of listed.teams)
            this.#wanted.teams.delete(id);
        if (!this.#following())
            return this.#refuse('forbidden');
        if (asked === undefined)
            return;
        const drop = (ids, out) => ids.filter((id) => !out.includes(id));
        const rest = {
            leagues: asked.leagues === '*' ? asked.leagues : drop(asked.leagues, listed.leagues),
            fixtures: drop(asked.fixtures, listed.fixtures),
            teams: drop(asked.teams, listed.teams),
            dates: asked.dates
        };
        if (!someIds(rest)) {
            if (frame.ref === this.#syncing)
                this.#live();
            return;
        }
        if (asked.kind === 'more')
            this.#request('more', rest, { snapshot: true });
        else
            this.#resubscribe();
    }
    /**
     * A subscribe refused because it took odds the key may not have: odds are given up (no odds asked again,
     * on this connection or the next), the app is told once (an `error` event, `forbidden`), and the same
     * subscribe goes again without them, so the fixtures flow as they would have.
     */
    #oddsRefused(frame, asked) {
        this.#odds = undefined;
        if (this.#kinds !== undefined)
            this.#kinds = this.#kinds.filter((k) => !ODDS_KINDS.has(k));
        this.odds.clear();
        this.#oddsAppliedAt.clear();
        this.#emit('error', { code: frame.code, message: frame.message ?? '', ...(frame.ref !== undefined ? { ref: frame.ref } : {}) });
        // Kinds that were all odds kinds leave nothing to take.
        if (this.#kinds?.length === 0) {
            if (frame.ref === this.#syncing)
                this.#live();
            return;
        }
        const ref = this.#request(asked.kind, asked, asked.how);
        if (frame.ref === this.#syncing)
            this.#syncing = ref;
        if (frame.ref === this.#healing)
            this.#healing = ref;
    }
    /** The socket closed: refused for good, or another attempt after a pause. */
    async #closed(code, opened) {
        if (this.#stopped)
            return;
        if (code === 4001)
            return this.#refuse('revoked');
        if (code === 4029)
            return this.#refuse('too_many_connections');
        // A token refused for good (invalid, revoked, wider than its key, or the origin not allowed): a new one from
        // the same backend would be refused the same way. An expired one (4401) is asked for again below.
        if (code === 4403) {
            const said = this.#tokenRefusal;
            if (said?.code === 'forbidden')
                return this.#refuse('origin_refused', `${REFUSALS.origin_refused} The gateway said: ${said.message}`);
            return this.#refuse('unauthorized', `The gateway refused the token${said === undefined ? '' : `: ${said.message}`}. Check how the app's backend signs it.`);
        }
        const generation = this.#generation;
        // A socket that never opened: the upgrade was refused or the gateway is unreachable; ask why over HTTP,
        // naming one league followed (a league-limited key is refused others: that would read as forbidden).
        const league = [...this.#wanted.leagues][0];
        const why = opened ? undefined : await diagnose(this.#base, this.query(league === undefined ? '' : `&leagues=${league}`));
        if (this.#stopped || generation !== this.#generation)
            return;
        // A refusal does not go away by retrying: say which and stop. (With tokens, a token refused over HTTP may
        // just be old: the next attempt asks for a new one.)
        if (why?.reason === 'unauthorized' || why?.reason === 'origin_refused') {
            if (this.#getToken === undefined || why.reason === 'origin_refused')
                return this.#refuse(why.reason);
            return this.#retry(undefined, code);
        }
        this.#retry(why, code);
    }
    /** Another attempt after the backoff; `why` the diagnosis of a socket that would not open. */
    #retry(why, code = 0) {
        this.#attempt++;
        // 1001: the server is shutting down; another instance (or this one restarted) answers at once.
        const delay = backoffDelay(code === 1001 ? 1 : this.#attempt, this.#backoff);
        clearTimeout(this.#retryTimer);
        this.#retryTimer = setTimeout(() => { this.#connectSocket().catch(() => { }); }, delay);
        if (why === undefined)
            this.#setStatus({ state: 'reconnecting', retryInMs: delay });
        else
            this.#setStatus({ state: why.reason === 'offline' ? 'offline' : 'reconnecting', retryInMs: delay, reason: why.reason, message: why.message, ...(why.detail !== undefined ? { detail: why.detail } : {}) });
    }
    /** Stops for good: retrying cannot help. */
    #refuse(reason, message = REFUSALS[reason]) {
        this.#stopped = true;
        clearTimeout(this.#retryTimer);
        env.removeEventListener?.('online', this.#online);
        if (this.#ws !== undefined)
            this.#detach(this.#ws);
        this.#setStatus({ state: 'refused', reason, message });
    }
    #send(frame) {
        if (this.#ws?.readyState === 1)
            this.#ws.send(JSON.stringify(frame));
    }
    #setStatus(status) {
        this.status = status;
        this.#emit('status', status);
    }
}
//# sourceMappingURL=client.js.map