"""A memory system behind PrecisionMemBench's HTTP contract, as a process the tests can kill.

Keyword overlap over what /add sent, per user (as examples/memory_wrapper.py), with a request
log and the misbehaviours a real system has, each switched on by a flag:

  provider.py PORT LOG [--die-after-searches N] [--delay-ms MS] [--flaky QUERY]
                       [--invent-ids] [--search-status CODE] [--fail-add ID]
                       [--unread-every N] [--reset-status CODE] [--down-first N]
                       [--overhead-ms MS]

--die-after-searches N  SIGKILL itself after answering the Nth search (a crash);
--delay-ms MS           wait before answering each search (a slow system);
--flaky QUERY           a search whose query contains QUERY answers nothing every second time;
--invent-ids            every answer also holds an id never added;
--search-status CODE    every search answers CODE with an error body;
--fail-add ID           adding the belief ID answers 500;
--unread-every N        every Nth search answers 200 with no results array ({"items": []});
--reset-status CODE     /reset answers CODE and clears nothing;
--down-first N          the first N searches answer 500 (a system that comes up late);
--overhead-ms MS        /add answers {"db_overhead_ms": MS}.

LOG gets one JSON line per request received: {"method", "path", "query"}.
"""
import json, os, re, signal, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, log_path = int(sys.argv[1]), sys.argv[2]
flags = sys.argv[3:]
def flag(name, default=None):
    return flags[flags.index(name) + 1] if name in flags else default
die_after = int(flag("--die-after-searches", 0))
delay = int(flag("--delay-ms", 0)) / 1000
flaky = flag("--flaky")
invent = "--invent-ids" in flags
status = int(flag("--search-status", 200))
fail_add = flag("--fail-add")
unread_every = int(flag("--unread-every", 0))
reset_status = int(flag("--reset-status", 200))
down_first = int(flag("--down-first", 0))
overhead = flag("--overhead-ms")
store, searches, flaked, asked = {}, [0], [0], [0]
words = lambda text: set(re.findall(r"\w{3,}", text.lower()))
log = open(log_path, "a", buffering=1)

class Provider(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes; with Nagle's algorithm on a kept-alive connection
    # the body waits for the client's delayed ACK, 40 ms a request.
    disable_nagle_algorithm = True
    def answer(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data))); self.end_headers(); self.wfile.write(data)
    def body(self):
        return json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or "{}")
    def note(self, b):
        log.write(json.dumps({"method": self.command, "path": self.path, "query": b.get("query")}) + "\n")
    def do_GET(self): self.note({}); self.answer(200, {"status": "ok"})
    def do_DELETE(self):
        self.body(); self.note({})
        if reset_status != 200: return self.answer(reset_status, {"detail": "reset is down"})
        store.clear(); self.answer(200, {})
    def do_PUT(self): b = self.body(); self.note(b); self.answer(404, {"detail": "no update"})
    def do_POST(self):
        b = self.body(); self.note(b)
        if self.path == "/add":
            if b["metadata"]["beliefId"] == fail_add: return self.answer(500, {"detail": "add failed"})
            store[b["metadata"]["beliefId"]] = b
            return self.answer(200, {"db_overhead_ms": float(overhead)} if overhead else {})
        if self.path != "/search": return self.answer(404, {"detail": "Not Found"})
        if "query" not in b: return self.answer(422, {"detail": "expected a query"})
        time.sleep(delay)
        if status != 200: return self.answer(status, {"detail": "search is down"})
        asked[0] += 1
        if asked[0] <= down_first: return self.answer(500, {"detail": "not up yet"})
        if unread_every and asked[0] % unread_every == 0: return self.answer(200, {"items": []})
        hits = sorted((-len(words(b["query"]) & words(m["text"])), i)
                      for i, m in store.items() if m["user_id"] == b["user_id"])
        results = [{"id": i} for n, i in hits if n][: b["limit"]]
        if flaky and flaky in b["query"]:
            flaked[0] += 1
            if flaked[0] % 2 == 0: results = []
        if invent: results.append({"id": "invented-%d" % (searches[0] % 3)})
        searches[0] += 1
        self.answer(200, {"results": results})
        if die_after and searches[0] >= die_after:
            self.wfile.flush(); os.kill(os.getpid(), signal.SIGKILL)
    def log_message(self, *args): pass

server = ThreadingHTTPServer(("127.0.0.1", port), Provider)
server.daemon_threads = True
print(f"http://127.0.0.1:{server.server_port}", flush=True)
server.serve_forever()
