// A worker module for src/push/encrypt.ts whose thread dies on its first task (test/unit/push/encrypt.test.ts).
export default function encryptBatch () {
  process.exit(1)
}
