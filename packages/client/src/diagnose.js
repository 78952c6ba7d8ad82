/** Why the client stopped for good, in plain words (status `refused`): which refusal, and what to do. */
export const REFUSALS = Object.freeze({
    unauthorized: 'The gateway does not know this key (bad key). Check the key.',
    revoked: 'This key has been revoked. Ask for a new key.',
    origin_refused: 'This key does not allow this site (refused origin). Add it to the key\'s allowed origins.',
    too_many_connections: 'This key has too many open connections; close one and try again.',
    forbidden: 'This key may not follow any of the leagues, fixtures or teams asked for.',
    invalid_subscription: 'The gateway refused the subscription as invalid (invalid_message); check what is asked.',
    limit_exceeded: 'The gateway refused the subscription: it asks for more than the gateway allows (limit_exceeded).'
});
/** How long each HTTP question may take. */
const DIAGNOSE_TIMEOUT_MS = 5_000;
/** A request no cache may answer, given up after DIAGNOSE_TIMEOUT_MS. (`cache` is the browsers' option; Node's fetch takes it too.) */
const fresh = (method) => ({ method, cache: 'no-store', signal: AbortSignal.timeout(DIAGNOSE_TIMEOUT_MS) });
const page = globalThis;
/**
 * Why the socket cannot open.
 * @param base gateway origin
 * @param query `api_token=...` and, to keep the answer small, one league the client follows
 */
export async function diagnose(base, query) {
    const unreachable = (err) => page.navigator?.onLine === false
        ? { reason: 'offline', message: 'You are offline.' }
        : { reason: 'unreachable', message: `Cannot reach the live feed at ${new URL(base).host}.`, ...networkCode(err) };
    const crossOrigin = page.location !== undefined && new URL(base).origin !== page.location.origin;
    const reachable = async () => await fetch(`${base}/widget.js`, fresh('HEAD'))
        .then((r) => r.ok, () => false);
    if (crossOrigin && !(await reachable()))
        return unreachable();
    try {
        const res = await fetch(`${base}/v1/fixtures/live?${query}`, fresh('GET'));
        await res.body?.cancel();
        if (res.status === 401)
            return { reason: 'unauthorized', message: REFUSALS.unauthorized };
        // A 403 the client can read is not its origin's (that one comes without CORS headers: a failed fetch).
        if (res.status === 403)
            return { reason: 'forbidden', message: 'This key may not follow these leagues.' };
        return { reason: 'unavailable', message: 'The live feed is unavailable.' };
    }
    catch (err) {
        return crossOrigin && await reachable() ? { reason: 'origin_refused', message: REFUSALS.origin_refused } : unreachable(err);
    }
}
function networkCode(err) {
    const cause = err?.cause;
    return typeof cause?.code === 'string' ? { detail: cause.code } : {};
}
//# sourceMappingURL=diagnose.js.map