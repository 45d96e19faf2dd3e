#!/usr/bin/env python3
"""A static https server on 127.0.0.1 for the install integration test.

Serves DIR with the given certificate on a free port, writes the port to
PORT_FILE once it listens, and runs until killed. apt's https method and curl
(--proto =https) talk to it exactly as to repo.radeon.com.
"""
import functools
import os
import http.server
import ssl
import sys
import threading
import time


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, fmt, *args):  # the access log goes to stderr, which the test keeps
        sys.stderr.write("%s\n" % (fmt % args))


def exit_when_orphaned(server, parent):
    while os.getppid() == parent:
        time.sleep(1)
    server.shutdown()


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: https_server.py DIR CERT KEY PORT_FILE")
    directory, cert, key, port_file = sys.argv[1:]
    handler = functools.partial(QuietHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    # The test may be killed outright (a ctest timeout): go with it.
    parent = os.getppid()
    watchdog = threading.Thread(target=exit_when_orphaned, args=(server, parent), daemon=True)
    watchdog.start()
    server.serve_forever()


if __name__ == "__main__":
    main()
