#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A browser's requests to curatord-web over HTTPS, for the checks of `make test-systemd`:
# the certificate is verified against the test's own (--ca) and the name browsers use
# (--name HOST:PORT, sent as Host and checked against the certificate), the connection
# made to --connect ADDRESS:PORT. Prints the status line, then the headers, then a
# blank line; the body goes to --body FILE (else it is printed after them).
#
#   web_client.py --ca CRT --name curatord.test:8443 --connect 127.0.0.1:8443 \
#       [--cookie NAME=VALUE] [--post JSON] [--body FILE] PATH
import argparse
import http.client
import ssl
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--ca", required=True)
parser.add_argument("--name", required=True)
parser.add_argument("--connect", required=True)
parser.add_argument("--cookie")
parser.add_argument("--post")
parser.add_argument("--body")
parser.add_argument("path")
args = parser.parse_args()

context = ssl.create_default_context(cafile=args.ca)  # verifies the chain and the name
context.minimum_version = ssl.TLSVersion.TLSv1_2
host, _, _ = args.name.rpartition(":")
address, _, port = args.connect.rpartition(":")


class Connection(http.client.HTTPSConnection):
    """Connects to --connect, but speaks TLS to --name (SNI, certificate check)."""

    def connect(self):
        http.client.HTTPConnection.connect(self)
        self.sock = context.wrap_socket(self.sock, server_hostname=host)


connection = Connection(address, int(port), timeout=30, context=context)
headers = {"Host": args.name}
if args.cookie:
    headers["Cookie"] = args.cookie
if args.post is not None:
    headers.update({"X-Curator": "1", "Content-Type": "application/json", "Origin": "https://" + args.name})
    connection.request("POST", args.path, body=args.post.encode(), headers=headers)
else:
    connection.request("GET", args.path, headers=headers)
version = connection.sock.version()
answer = connection.getresponse()
body = answer.read()
print(f"HTTP {answer.status} {answer.reason} ({version})")
for name, value in answer.getheaders():
    print(f"{name}: {value}")
print()
if args.body:
    with open(args.body, "wb") as out:
        out.write(body)
else:
    sys.stdout.write(body.decode(errors="replace") + "\n")
