--[[
  Claims one alert for one device before it is sent: a device gets an alert id at most once, whoever sends
  it and however often the log is read again. A new alert counts in the device's hourly window and is
  dropped when the window already holds `ceiling` alerts (less important kinds have lower ceilings, so
  they stop first).

  Input:
    KEYS[1] device's alerts hash      alert id -> state (i in flight, r to retry, d delivered, x failed, c capped)
    KEYS[2] device's recent alerts    sorted set, alert id scored by ms sent
    ARGV[1] alert id
    ARGV[2] now, ms
    ARGV[3] window, ms (one hour)
    ARGV[4] ceiling for this alert's kind
    ARGV[5] how long the alerts hash is kept, ms (the match day)

  Output:
    1 claimed (send it); 0 already handled (in flight, delivered, failed or capped); 2 capped now (dropped)
]]
local state = redis.call('HGET', KEYS[1], ARGV[1])
if state and state ~= 'r' then
  return 0
end
if not state then
  local now = tonumber(ARGV[2])
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[3]))
  if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then
    redis.call('HSET', KEYS[1], ARGV[1], 'c')
    redis.call('PEXPIRE', KEYS[1], ARGV[5])
    return 2
  end
  redis.call('ZADD', KEYS[2], now, ARGV[1])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
redis.call('HSET', KEYS[1], ARGV[1], 'i')
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
