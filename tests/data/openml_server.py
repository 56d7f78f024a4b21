# SPDX-License-Identifier: GPL-3.0-or-later
"""A local stand-in for OpenML's XML API, as much of it as the ``openml`` client reads to get a data
set's ARFF file: ``GET {server}/data/{id}`` (the description, which names the file's URL and md5)
and the file itself. Each data set can be made to fail the way a real download does: a 404, a
server that never answers, a body cut short."""
from __future__ import annotations

import hashlib
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Served:
    name: str
    body: bytes
    file_status: int = 200        # 404: the description names a file the server does not have
    delay: float = 0.0            # seconds before the file's first byte (a hung server)
    truncate_at: int | None = None  # send this many bytes of the file, then close the connection


_DESCRIPTION = """<oml:data_set_description xmlns:oml="http://openml.org/openml">
  <oml:id>{id}</oml:id>
  <oml:name>{name}</oml:name>
  <oml:version>1</oml:version>
  <oml:description>served by the nbrepro tests</oml:description>
  <oml:format>ARFF</oml:format>
  <oml:upload_date>2026-11-26T00:00:00</oml:upload_date>
  <oml:licence>Public</oml:licence>
  <oml:url>{url}</oml:url>
  <oml:file_id>{id}</oml:file_id>
  <oml:visibility>public</oml:visibility>
  <oml:status>active</oml:status>
  <oml:md5_checksum>{md5}</oml:md5_checksum>
</oml:data_set_description>
"""
_UNKNOWN = """<oml:error xmlns:oml="http://openml.org/openml">
  <oml:code>111</oml:code>
  <oml:message>Unknown dataset</oml:message>
</oml:error>
"""


class LocalOpenML:
    """``with LocalOpenML({61: Served("iris", bytes)}) as server: openml.config.server = server.api``"""

    def __init__(self, datasets: dict[int, Served]):
        self.datasets = datasets
        self.requests: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):   # quiet
                pass

            def _send(self, status: int, body: bytes, ctype: str, length: int | None = None):
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body) if length is None else length))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                path = self.path.split("?")[0]
                outer.requests.append(path)
                parts = path.strip("/").split("/")
                if parts[:4] == ["api", "v1", "xml", "data"] and len(parts) == 5:
                    served = outer.datasets.get(int(parts[4]))
                    if served is None:
                        return self._send(412, _UNKNOWN.encode(), "text/xml; charset=utf-8")
                    xml = _DESCRIPTION.format(id=parts[4], name=served.name, url=outer.file_url(int(parts[4])),
                                              md5=hashlib.md5(served.body).hexdigest())
                    return self._send(200, xml.encode(), "text/xml; charset=utf-8")
                if parts[:3] == ["data", "v1", "download"] and len(parts) == 5:
                    served = outer.datasets.get(int(parts[3]))
                    if served is None or served.file_status != 200:
                        return self._send(404, b"<html>404 Not Found</html>", "text/html")
                    time.sleep(served.delay)
                    if served.truncate_at is not None:
                        self._send(200, served.body[:served.truncate_at], "text/plain; charset=utf-8",
                                   length=len(served.body))
                        self.close_connection = True
                        return None
                    return self._send(200, served.body, "text/plain; charset=utf-8")
                return self._send(404, b"<html>404 Not Found</html>", "text/html")

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        # a client that gave up (the timeout case) closes its end while the file is being sent
        self._server.handle_error = lambda request, client_address: None
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}"
        self.api = f"{self.base}/api/v1/xml"

    def file_url(self, did: int) -> str:
        return f"{self.base}/data/v1/download/{did}/{self.datasets[did].name}.arff"

    def __enter__(self):
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self._server.shutdown()
        self._server.server_close()
