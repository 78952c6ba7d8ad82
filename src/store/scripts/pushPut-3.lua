--[[
  Stores a push subscription under its device id, within its client key's cap and, for a device a fan
  posted with a token, within the fan's cap. A device posted again replaces its record; one posted by
  another key moves to that key (and counts against its cap), one posted by another fan (or by a fan, when
  the key posted it) moves to that fan (and counts against the fan's cap).

  A fan's set is named ARGV[9] .. owner .. ':' .. sha1hex(fan) (store/redis-keys.ts, pushKeys fanPrefix):
  found here from a record's `owner` and `fan`, as an owner's set is from its `owner`.

  Input:
    KEYS[1] shard's subscriptions hash   device id -> subscription JSON (its `owner` and `fan` name its sets)
    KEYS[2] owner set of the posting key  device ids
    KEYS[3] versions hash                 shard -> version
    ARGV[1] device id
    ARGV[2] subscription JSON
    ARGV[3] encoded name of the posting key (the JSON's `owner`)
    ARGV[4] owner set prefix (KEYS[2] is ARGV[4] .. ARGV[3])
    ARGV[5] most subscriptions a key may have
    ARGV[6] shard
    ARGV[7] the fan (the JSON's `fan`), '' when the key itself posted it
    ARGV[8] most subscriptions a fan may have; 0: no fan cap
    ARGV[9] fan set prefix

  Output:
    1 created (none before, or, for a fan, none of this fan's); 0 replaced; -1 refused (the key has ARGV[5]
    already); -2 refused (the fan has ARGV[8] already)
]]
local old = redis.call('HGET', KEYS[1], ARGV[1])
local previous = nil
local previousFan = nil
if old then
  local record = cjson.decode(old)
  previous = record.owner
  if type(record.fan) == 'string' then
    previousFan = record.fan
  end
end
local fan = nil
if ARGV[7] ~= '' then
  fan = ARGV[7]
end
local fanSet = function (owner, name)
  return ARGV[9] .. owner .. ':' .. redis.sha1hex(name)
end
-- Whether the record stays with the same key and the same fan (or none): a replacement, counted once.
local same = previous == ARGV[3] and previousFan == fan
if previous ~= ARGV[3] and redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[5]) then
  return -1
end
if fan and not same and tonumber(ARGV[8]) > 0 and redis.call('SCARD', fanSet(ARGV[3], fan)) >= tonumber(ARGV[8]) then
  return -2
end
if previous and previous ~= ARGV[3] then
  redis.call('SREM', ARGV[4] .. previous, ARGV[1])
end
if previousFan and not same then
  redis.call('SREM', fanSet(previous, previousFan), ARGV[1])
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
if fan then
  redis.call('SADD', fanSet(ARGV[3], fan), ARGV[1])
end
redis.call('HINCRBY', KEYS[3], ARGV[6], 1)
if not old or (fan and not same) then
  return 1
end
return 0
