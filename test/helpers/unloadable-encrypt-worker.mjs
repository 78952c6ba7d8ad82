// A worker module for src/push/encrypt.ts that fails as it loads (test/unit/push/encrypt.test.ts).
throw new Error('this worker cannot load')
