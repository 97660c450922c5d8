#!/usr/bin/env python3
"""An HTTP upstream that answers every GET with the request headers it received, one
`Name: value` a line: scripts/check-deploy.sh puts it where the server was, behind each proxy, to
see that no client address (X-Forwarded-For, Forwarded, X-Real-IP) is passed on.

    python3 Tests/Deploy/echo_headers.py PORT        (listens on 127.0.0.1 until killed)
"""
import http.server
import sys


class Echo(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = "".join(f"{name}: {value}\n" for name, value in self.headers.items()).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


if __name__ == "__main__":
    http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Echo).serve_forever()
