-- wrk: random pages of a v1 list. Arguments after `--`: the list's path,
-- the highest page, and optionally a query to add (such as `expand=...`).
-- Used by scripts/benchmarks/bench-serving and scripts/benchmarks/bench-v1-ab.
local path, max_page, extra = nil, 1, ""
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end
function init(args)
  path = args[1]
  max_page = tonumber(args[2])
  extra = args[3] or ""
  math.randomseed(os.time() * 100 + id)
end
function request()
  local query = "?page=" .. math.random(max_page)
  if extra ~= "" then query = query .. "&" .. extra end
  return wrk.format("GET", path .. query)
end
