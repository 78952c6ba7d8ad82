// A worker module for src/webpush/encrypt.ts that fails as it loads (test/unit/webpush/encrypt.test.ts).
throw new Error('this worker cannot load')
