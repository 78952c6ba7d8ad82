--[[
  Stores a push subscription under its device id, within its client key's cap. A device posted again
  replaces its record; one posted by another key moves to that key (and counts against its cap).

  Input:
    KEYS[1] shard's subscriptions hash   device id -> subscription JSON (its `owner` field names the key's set)
    KEYS[2] owner set of the posting key  device ids
    KEYS[3] versions hash                 shard -> version
    ARGV[1] device id
    ARGV[2] subscription JSON
    ARGV[3] encoded name of the posting key (the JSON's `owner`)
    ARGV[4] owner set prefix (KEYS[2] is ARGV[4] .. ARGV[3])
    ARGV[5] most subscriptions a key may have
    ARGV[6] shard

  Output:
    1 created; 0 replaced; -1 refused (the key has ARGV[5] already)
]]
local old = redis.call('HGET', KEYS[1], ARGV[1])
local created = 1
local previous = nil
if old then
  created = 0
  previous = cjson.decode(old).owner
end
if previous ~= ARGV[3] and redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[5]) then
  return -1
end
if previous and previous ~= ARGV[3] then
  redis.call('SREM', ARGV[4] .. previous, ARGV[1])
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('HINCRBY', KEYS[3], ARGV[6], 1)
return created
