// A worker module for src/webpush/encrypt.ts whose thread dies on its first task (test/unit/webpush/encrypt.test.ts).
export default function encryptBatch () {
  process.exit(1)
}
