"""A small embedding server for the tests: real MiniLM embeddings (Python onnxruntime on a
tenure-eval model folder, as scripts/embed_reference.py computes them) behind the APIs of
Ollama (POST /api/embed, POST /api/embeddings, GET /api/tags) and OpenAI (POST /v1/embeddings).

Binds 127.0.0.1 only; prints "listening PORT" on its first stdout line. GET /stats tells how many
embedding requests it answered. --fault makes it misbehave the way real services do:

  503-once     the first embedding request gets 503, the rest are served
  500          every embedding request gets a plain-text 500
  not-json     200 with an HTML body
  truncated    200 with a JSON body cut short
  wrong-count  one vector fewer than texts
  wrong-dim    vectors one number short, from the second request on
  zero         the last vector of each answer is all zeros
  nan          a NaN in the first vector, written as null (what JavaScript's JSON.stringify does)
  slow         sleeps 5 s before answering

Usage: python embed_server.py MODEL_DIR [--port P] [--name NAME] [--digest D] [--api-key K] [--fault F]
"""

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from embed_reference import Embedder  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model_dir")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--name", default="all-minilm-l6-v2")
    parser.add_argument("--digest", default="sha256:minilm-test-digest")
    parser.add_argument("--api-key", default=None)
    parser.add_argument("--fault", default=None)
    args = parser.parse_args()

    embedder = Embedder(args.model_dir, 1)
    # Pool only; each endpoint normalises or not (requests run on several threads at once).
    embedder.config["normalize"] = False
    state = {"requests": 0}
    lock = threading.Lock()

    def vectors(texts, normalize):
        pooled = embedder.embed(list(texts), 32)
        if normalize:
            pooled = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return pooled.astype(np.float32).tolist()

    class Handler(BaseHTTPRequestHandler):
        # Headers and body go out in two writes: without this, Nagle's algorithm holds the body
        # for the client's delayed ACK on a kept-alive connection.
        disable_nagle_algorithm = True

        def log_message(self, *a):
            pass

        def send(self, status, body, content_type="application/json"):
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if self.path == "/api/tags":
                self.send(200, {"models": [{"name": args.name + ":latest", "digest": args.digest}]})
            elif self.path == "/stats":
                self.send(200, state)
            else:
                self.send(404, {"error": "not found"})

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            with lock:
                state["requests"] += 1
                n = state["requests"]
            fault = args.fault
            if fault == "slow":
                time.sleep(5)
            if fault == "503-once" and n == 1 or fault == "500":
                return self.send(503 if fault == "503-once" else 500, b"Internal Server Error", "text/plain")
            if fault == "not-json":
                return self.send(200, b"<html>proxy error</html>", "text/html")
            if fault == "truncated":
                return self.send(200, b'{"embeddings": [[0.1, 0.2,')
            if body.get("model") != args.name:
                return self.send(404, {"error": f"model '{body.get('model')}' not found"})
            if self.path == "/api/embed":
                texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                out = vectors(texts, True)
            elif self.path == "/api/embeddings":
                out = vectors([body["prompt"]], False)
            elif self.path == "/v1/embeddings":
                if args.api_key and self.headers.get("Authorization") != "Bearer " + args.api_key:
                    return self.send(401, {"error": {"message": "Incorrect API key provided"}})
                texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                out = vectors(texts, True)
            else:
                return self.send(404, {"error": "not found"})
            if fault == "wrong-count":
                out = out[:-1]
            if fault == "wrong-dim" and n > 1:
                out = [v[:-1] for v in out]
            if fault == "zero":
                out[-1] = [0.0] * len(out[-1])
            if fault == "nan":
                out[0][3] = None
            if self.path == "/api/embed":
                self.send(200, {"model": args.name, "embeddings": out})
            elif self.path == "/api/embeddings":
                self.send(200, {"embedding": out[0]})
            else:
                # Out of order on purpose: clients must sort by index.
                data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(out)]
                self.send(200, {"object": "list", "data": data[::-1], "model": args.name,
                                "usage": {"prompt_tokens": 0, "total_tokens": 0}})

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request, client_address):
            pass  # a client that timed out and hung up (the `slow` fault) is expected

    server = Server(("127.0.0.1", args.port), Handler)
    print("listening", server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
