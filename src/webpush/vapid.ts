/**
 * `touchline push-keys`: a new VAPID key pair (P-256), printed once as the settings that hold it. The
 * private key is shown here and nowhere else: the gateway never prints or logs it.
 */
import { createECDH } from 'node:crypto'

export function newVapidKeys (): { publicKey: string, privateKey: string } {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  // getPrivateKey drops leading zero bytes: pad back to the 32 bytes a P-256 private key is.
  const priv = ecdh.getPrivateKey()
  const privateKey = Buffer.concat([Buffer.alloc(32 - priv.length), priv]).toString('base64url')
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey }
}

export function pushKeysText (keys = newVapidKeys()): string {
  return [
    '# VAPID keys for Web Push alerts (docs/push.md). Keep the private key secret; changing the pair',
    '# invalidates every browser subscription (fans have to turn their bells on again).',
    `TOUCHLINE_VAPID_PUBLIC_KEY=${keys.publicKey}`,
    `TOUCHLINE_VAPID_PRIVATE_KEY=${keys.privateKey}`,
    'TOUCHLINE_VAPID_SUBJECT=mailto:you@example.org',
    ''
  ].join('\n')
}
