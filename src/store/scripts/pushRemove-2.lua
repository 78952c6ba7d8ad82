--[[
  Deletes a push subscription and its place in its key's set.

  Input:
    KEYS[1] shard's subscriptions hash
    KEYS[2] versions hash
    ARGV[1] device id
    ARGV[2] owner set prefix
    ARGV[3] shard

  Output:
    1 deleted; 0 there was none
]]
local old = redis.call('HGET', KEYS[1], ARGV[1])
if not old then
  return 0
end
redis.call('SREM', ARGV[2] .. cjson.decode(old).owner, ARGV[1])
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
return 1
