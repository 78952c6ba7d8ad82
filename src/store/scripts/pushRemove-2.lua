--[[
  Deletes a push subscription and its place in its key's set (and in its fan's, when a fan posted it).

  Input:
    KEYS[1] shard's subscriptions hash
    KEYS[2] versions hash
    ARGV[1] device id
    ARGV[2] owner set prefix
    ARGV[3] shard
    ARGV[4] fan set prefix (a fan's set is ARGV[4] .. owner .. ':' .. sha1hex(fan), as pushPut-3.lua names it)

  Output:
    1 deleted; 0 there was none
]]
local old = redis.call('HGET', KEYS[1], ARGV[1])
if not old then
  return 0
end
local record = cjson.decode(old)
redis.call('SREM', ARGV[2] .. record.owner, ARGV[1])
if type(record.fan) == 'string' then
  redis.call('SREM', ARGV[4] .. record.owner .. ':' .. redis.sha1hex(record.fan), ARGV[1])
end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
return 1
