// The payload encryption of a batch of push requests (RFC 8291, aes128gcm, by web-push), run in a worker
// thread by src/webpush/encrypt.ts (or, with no threads, on the event loop). Plain JavaScript so that a worker
// thread loads it as it is, from the sources (tsx, vitest) as from the build.
import webpush from 'web-push'

/**
 * @param {{ payload: string, keys: Array<[p256dh: string, auth: string]> }} task
 * @returns {{ bodies: Uint8Array, lengths: number[] }} every device's body, one after the other; a length of
 *   -1 where the device's keys could not be used (validated at subscribe, so it should not happen)
 */
export default function encryptBatch ({ payload, keys }) {
  const parts = keys.map(([p256dh, auth]) => {
    try {
      return webpush.encrypt(p256dh, auth, payload, 'aes128gcm').cipherText
    } catch {
      return null
    }
  })
  const bodies = new Uint8Array(parts.reduce((n, p) => n + (p?.length ?? 0), 0))
  let at = 0
  for (const p of parts) {
    if (p === null) continue
    bodies.set(p, at)
    at += p.length
  }
  return { bodies, lengths: parts.map((p) => p?.length ?? -1) }
}
