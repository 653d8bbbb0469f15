import json, re, sys; from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
store = {}  # beliefId -> what /add sent: put your memory system's add and search in its place
words = lambda text: set(re.findall(r"\w{3,}", text.lower()))
class Wrapper(BaseHTTPRequestHandler):
    def answer(self, status, body):
        data = json.dumps(body).encode(); self.send_response(status); self.send_header("Content-Length", str(len(data))); self.end_headers(); self.wfile.write(data)
    def do_DELETE(self): store.clear(); self.answer(200, {})
    def do_POST(self):
        b = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or "{}")
        if self.path == "/add": store[b["metadata"]["beliefId"]] = b; return self.answer(200, {})
        if "query" not in b: return self.answer(422, {"detail": "expected a query"})
        hits = sorted((-len(words(b["query"]) & words(m["text"])), i) for i, m in store.items() if m["user_id"] == b["user_id"])
        self.answer(200, {"results": [{"id": i} for n, i in hits if n][: b["limit"]]})
    def log_message(self, *args): pass
server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1]) if sys.argv[1:] else 8080), Wrapper)
print(f"http://127.0.0.1:{server.server_port}", flush=True); server.serve_forever()
