#!/usr/bin/env python3
"""Stands in for LAVA's REST API with the answers a real instance gave
(tests/fixtures/lava/), for tests/cli/lava.bats: POST /api/v0.2/jobs/
answers submitted.json (job 5), GET /api/v0.2/jobs/5/ job-finished.json,
/logs/ job-log.yaml (that job's log: bootab's test script on the qemu
device), /tests/ job-bootab-tests.json. A request without the
Authorization header of the token given is answered 401, as LAVA does.
Every request is appended to LOG as one JSON line (method, path, headers,
body). Usage: lava-answers.py FIXTURES TOKEN PORT_FILE LOG"""
import http.server
import json
import os
import sys

fixtures, token, port_file, log = sys.argv[1:5]
files = {
    "/api/v0.2/jobs/5/": "job-finished.json",
    "/api/v0.2/jobs/5/logs/": "job-log.yaml",
    "/api/v0.2/jobs/5/tests/": "job-bootab-tests.json",
}


class Handler(http.server.BaseHTTPRequestHandler):
    def record(self, body):
        with open(log, "a") as f:
            f.write(json.dumps({"method": self.command, "path": self.path,
                                "authorization": self.headers.get("Authorization"),
                                "body": body}) + "\n")

    def answer(self, status, name):
        data = open(os.path.join(fixtures, name), "rb").read() if name else b'{"detail":"Not found."}'
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def authorized(self):
        return self.headers.get("Authorization") == "Token " + token

    def do_GET(self):
        self.record(None)
        if not self.authorized():
            return self.answer(401, None)
        name = files.get(self.path.split("?")[0])
        self.answer(200 if name else 404, name)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
        self.record(body)
        if not self.authorized():
            return self.answer(401, None)
        self.answer(201 if self.path == "/api/v0.2/jobs/" else 404,
                    "submitted.json" if self.path == "/api/v0.2/jobs/" else None)

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
