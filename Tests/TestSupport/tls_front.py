"""A TLS front for a test's plain loopback HTTP server: the test's own certificate (signed by
an authority the test made) in front, every connection's bytes passed to the server behind.

    python3 tls_front.py CERT KEY BACKEND_PORT PORT_FILE

Writes the port it listens on (on 127.0.0.1) to PORT_FILE when it is ready.
"""
import os
import socket
import ssl
import sys
import threading

cert, key, backend, port_file = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(64)
with open(port_file + ".new", "w") as written:
    written.write(str(listener.getsockname()[1]))
os.rename(port_file + ".new", port_file)


def carry(source, target):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                return
            target.sendall(data)
    except OSError:
        return


def serve(raw):
    try:
        secure = context.wrap_socket(raw, server_side=True)
    except (ssl.SSLError, OSError):
        # A client that refused the certificate, or went away: nothing to pass on.
        raw.close()
        return
    try:
        behind = socket.create_connection(("127.0.0.1", backend))
    except OSError:
        secure.close()
        return
    upstream = threading.Thread(target=carry, args=(secure, behind), daemon=True)
    upstream.start()
    carry(behind, secure)
    # The server behind is done: end the connection at once (shutdown wakes the reading
    # thread and sends the client its end of file, which a plain close may not while that
    # thread still reads).
    for end in (secure, behind):
        try:
            end.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        end.close()


while True:
    connection, _ = listener.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
