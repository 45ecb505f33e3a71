-- post.lua - wrk script: POST the README's tiny bloxorz example.
wrk.method = "POST"
wrk.path = "/solve/bloxorz"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"grid": ["#######", "#..X###", "#..##O#", "#....E#", "#....E#", "#.....#", "#######"]}'
