#!/usr/bin/env python3
"""`rave study serve` under hostile and heavy use, on loopback only (docs/study.md#limits).

1. One server per port and per database: a second server on a port in use, or on a database
   another server holds, is refused with one line (exit 1).
2. Refused at start with one line: an unfinished set (rave.json says complete: false) and a
   database that cannot be written (read-only; run as nobody when the test runs as root).
3. Every bad request is a JSON error with its status (400/403/404/411/413/415), never a 500: path
   numbers past any range, a name that is not a string, a Host of another site (DNS rebinding), a
   text/plain enrolment, a body over the limit, a chunked body, an answer without a token (refused
   before its body is sent), an unknown page; a name of 200 characters (400 bytes) is accepted.
4. Slow clients (a header line a second) neither stall anyone else nor hold a connection past the
   request deadline.
5. The load test: 20 browsers at once, each holding 6 keep-alive connections as Chromium does, load
   problems (the problem's JSON and its 16 panels) and answer them; every problem loads in well
   under a second (asserted: 3 s, for a loaded CI machine), the median and the maximum printed.

usage: server_test.py RAVE_BINARY
"""
import http.client
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

failures = []
BROWSERS, CONNECTIONS, PROBLEMS = 20, 6, 5


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def start(rave, data, db, *extra, user=()):
    """Starts a server; returns (process, port) or (process, None) when it exited instead."""
    proc = subprocess.Popen([*user, rave, "study", "serve", str(data), "--db", str(db), "--per-config", "1",
                             "--practice", "2", "--seed", "3", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        proc.wait(timeout=30)
        proc.first_output = line + proc.stdout.read()
        return proc, None
    return proc, int(match.group(1))


def stop(proc):
    proc.kill()
    proc.wait()
    proc.stdout.close()


def refused(rave, data, db, what, pattern, *extra, user=()):
    proc, port = start(rave, data, db, *extra, user=user)
    if port is not None:
        check(False, f"{what}: the server started (port {port}) instead of being refused")
        stop(proc)
        return
    lines = proc.first_output.strip().splitlines()
    check(proc.returncode == 1 and len(lines) == 1 and re.search(pattern, lines[0]),
          f"{what}: exit {proc.returncode}, {proc.first_output!r}")
    proc.stdout.close()


def request(port, method, path, body=None, headers=None, host=None):
    """One request on its own connection: (status, JSON reply or None)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    sent = {"Content-Type": "application/json", **(headers or {})}
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    conn.putheader("Host", host or f"127.0.0.1:{port}")
    for key, value in sent.items():
        conn.putheader(key, value)
    if data is not None and "Transfer-Encoding" not in sent:
        conn.putheader("Content-Length", str(len(data)))
    try:
        conn.endheaders(data)
        response = conn.getresponse()
        text = response.read()
    except OSError as e:  # socket.timeout included: a server that never answers
        return None, repr(e)
    finally:
        conn.close()
    try:
        return response.status, json.loads(text)
    except ValueError:
        return response.status, None


def raw_reply(port, head, timeout=5):
    """Sends a request head only (its body never follows) and reads the reply: (status, JSON)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(head.encode())
        reply = b""
        try:
            while b"\r\n\r\n" not in reply or len(reply.split(b"\r\n\r\n", 1)[1]) < content_length(reply):
                chunk = s.recv(65536)
                if not chunk:
                    break
                reply += chunk
        except socket.timeout:
            return None, "no reply in time (the server waits for the body)"
    if not reply:
        return None, "no reply"
    status = int(reply.split(b" ", 2)[1])
    try:
        return status, json.loads(reply.split(b"\r\n\r\n", 1)[1])
    except ValueError:
        return status, None


def content_length(reply):
    match = re.search(rb"Content-Length: (\d+)", reply, re.I)
    return int(match.group(1)) if match else 0


def enrol(port):
    status, body = request(port, "POST", "/api/participants", {"name": "t"})
    check(status == 200, f"enrolment: {status} {body}")
    return body["token"]


def participants(db):
    import sqlite3
    with sqlite3.connect(db) as c:
        return c.execute("SELECT COUNT(*) FROM participants").fetchone()[0]


def bad_requests(port, db):
    token = enrol(port)
    auth = {"X-Rave-Token": token}
    big = "9" * 30
    cases = {
        "position past any integer": (("GET", f"/api/problems/{big}", None, auth, None), 404),
        "position past the sequence": (("GET", "/api/problems/99", None, auth, None), 404),
        "image past any integer": (("GET", f"/images/{big}/context-1.png", None, {}, None), 404),
        "image past the study": (("GET", "/images/99/context-1.png", None, {}, None), 404),
        "name not a string": (("POST", "/api/participants", {"name": 5}, {}, None), 400),
        "name of 201 characters": (("POST", "/api/participants", {"name": "é" * 201}, {}, None), 400),
        "another site's Host (enrolment)": (("POST", "/api/participants", {"name": "x"}, {}, f"evil.example:{port}"), 403),
        "another site's Host (state)": (("GET", "/api/state", None, auth, f"evil.example:{port}"), 403),
        "no Host": (("GET", "/api/state", None, auth, " "), 403),
        "text/plain enrolment": (("POST", "/api/participants", b'{"name": "x"}', {"Content-Type": "text/plain"}, None), 415),
        "body over the limit": (("POST", "/api/participants", {"name": "x" * 5000}, {}, None), 413),
        "chunked body": (("POST", "/api/participants", b"5\r\n{\"a\":\r\n0\r\n\r\n", {"Transfer-Encoding": "chunked"}, None), 411),
        "unknown page": (("GET", "/nowhere", None, {}, None), 404),
        "PUT": (("PUT", "/api/answers", b"{}", auth, None), 405),
        "DELETE without a length": (("DELETE", "/api/answers", None, auth, None), 405),
    }
    before = participants(db)
    for what, ((method, path, body, headers, host), want) in cases.items():
        status, reply = request(port, method, path, body, headers, host)
        check(status == want and isinstance(reply, dict) and isinstance(reply.get("error"), str)
              and not reply["error"].startswith("internal"),
              f"{what}: {status} {reply}, wanted {want} with a JSON error")
    check(participants(db) == before, "a refused enrolment added a participant")
    for host in (f"localhost:{port}", f"LOCALHOST:{port}"):
        status, _ = request(port, "GET", "/api/state", None, auth, host)
        check(status == 200, f"Host {host} refused: {status}")
    status, body = request(port, "POST", "/api/participants", {"name": "é" * 200})
    check(status == 200, f"a name of 200 characters (400 bytes) refused: {status} {body}")
    # Refused before the body is read: the reply comes while the body has not been sent.
    host = f"Host: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
    status, reply = raw_reply(port, f"POST /api/participants HTTP/1.1\r\n{host}Content-Length: 1000000000\r\n\r\n")
    check(status == 413, f"a 1 GB Content-Length: {status} {reply}, wanted 413 before the body")
    status, reply = raw_reply(port, f"POST /api/answers HTTP/1.1\r\n{host}Content-Length: 3000\r\n\r\n")
    check(status == 403, f"an answer without a token: {status} {reply}, wanted 403 before the body")
    status, reply = raw_reply(port, f"POST /api/answers HTTP/1.1\r\n{host}X-Rave-Token: {'0' * 32}\r\n"
                                    "Content-Length: 3000\r\n\r\n")
    check(status == 403, f"an answer with an unknown token: {status} {reply}, wanted 403 before the body")


def slow_clients(port, count=10, lines=15):
    """`count` clients each sending a header line a second; meanwhile others are served, and the
    server closes each slow connection at its request deadline (10 s), before its 15 lines end."""
    closed_early = []

    def slow():
        with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
            try:
                s.sendall(f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
                for k in range(lines):
                    time.sleep(1)
                    s.sendall(f"X-Slow-{k}: 1\r\n".encode())
                    s.setblocking(False)
                    try:
                        if s.recv(65536) is not None:
                            closed_early.append(k)
                            return
                    except BlockingIOError:
                        pass
                    finally:
                        s.setblocking(True)
            except OSError:
                closed_early.append(-1)

    threads = [threading.Thread(target=slow) for _ in range(count)]
    for t in threads:
        t.start()
    time.sleep(1.5)
    served_while_slow = 0
    for _ in range(3):
        status, _ = request(port, "GET", "/")
        served_while_slow += status == 200 and len(closed_early) == 0 and all(t.is_alive() for t in threads)
        time.sleep(0.5)
    check(served_while_slow == 3, f"with {count} slow clients connected, {served_while_slow} of 3 requests served")
    for t in threads:
        t.join()
    check(len(closed_early) == count, f"{count - len(closed_early)} of {count} slow clients kept their "
                                      f"connection for {lines} s (the request deadline is 10 s)")


class Browser:
    """A browser with 6 keep-alive connections: a problem is its JSON, then its 16 panels spread
    over the connections at once."""

    def __init__(self, port):
        self.port = port
        self.conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=15) for _ in range(CONNECTIONS)]
        self.token = None
        self.times = []
        self.errors = []

    def get(self, k, path, body=None):
        conn = self.conns[k]
        headers = {"X-Rave-Token": self.token or "", "Content-Type": "application/json"}
        for attempt in range(2):  # a keep-alive connection the server closed is opened again
            try:
                conn.request("POST" if body is not None else "GET", path,
                             None if body is None else json.dumps(body), headers)
                response = conn.getresponse()
                data = response.read()
                if response.status != 200:
                    self.errors.append(f"{path}: {response.status}")
                return data
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                conn.close()
                if attempt:
                    raise

    def load(self, position):
        start = time.perf_counter()
        problem = json.loads(self.get(0, f"/api/problems/{position}"))
        urls = problem["context"] + problem["candidates"]
        def fetch(k):
            try:
                for url in urls[k::CONNECTIONS]:
                    self.get(k, url)
            except Exception as e:  # noqa: BLE001 (reported as a failure)
                self.errors.append(repr(e))
        threads = [threading.Thread(target=fetch, args=(k,)) for k in range(CONNECTIONS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.times.append(time.perf_counter() - start)

    def run(self, barrier):
        try:
            self.token = json.loads(self.get(0, "/api/participants", {"name": "load"}))["token"]
            barrier.wait()
            for position in range(PROBLEMS):
                self.load(position)
                time.sleep(0.2)  # looking at the problem; the connections stay open
                self.get(0, "/api/answers", {"position": position, "answer": 1, "milliseconds": 200})
        except Exception as e:  # noqa: BLE001 (reported as a failure below)
            self.errors.append(repr(e))


def load_test(port):
    browsers = [Browser(port) for _ in range(BROWSERS)]
    barrier = threading.Barrier(BROWSERS, timeout=60)
    threads = [threading.Thread(target=b.run, args=(barrier,), daemon=True) for b in browsers]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=max(1, 120 - (time.perf_counter() - started)))
    times = sorted(t for b in browsers for t in b.times)
    errors = [e for b in browsers for e in b.errors]
    check(not errors, f"load test: {len(errors)} errors, first {errors[:3]}")
    check(len(times) == BROWSERS * PROBLEMS, f"load test: {len(times)} of {BROWSERS * PROBLEMS} problems loaded")
    if times:
        print(f"load test: {BROWSERS} browsers x {CONNECTIONS} keep-alive connections, {len(times)} problems "
              f"(JSON + 16 panels): median {statistics.median(times):.3f} s, max {times[-1]:.3f} s per problem")
        check(times[-1] < 3.0, f"load test: a problem took {times[-1]:.1f} s to load")


def unwritable(rave, work, data):
    """A database this user cannot write: a read-only file (in a writable folder), and a writable
    file in a read-only folder (where SQLite keeps its log); as nobody when the test runs as root,
    whom permissions do not stop."""
    user = ()
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            print("skipped: the read-only database checks (root without setpriv)")
            return
        user = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")
    for what, file_mode, folder_mode in (("a read-only database file", 0o444, 0o777),
                                         ("a database in a read-only folder", 0o666, 0o555)):
        folder = work / what.replace(" ", "-")
        folder.mkdir()
        db = folder / "study.sqlite"
        proc, port = start(rave, data, db, "--port", "0")
        check(port is not None, f"a server for the read-only check: {getattr(proc, 'first_output', '')}")
        if port is None:
            return
        time.sleep(0.2)
        proc.send_signal(signal.SIGINT)  # a clean stop: the log folded into the file
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            check(False, "SIGINT just after the server started did not stop it")
            proc.kill()
            proc.wait()
        proc.stdout.close()
        for p in folder.iterdir():
            p.chmod(file_mode)
        folder.chmod(folder_mode)
        refused(rave, data, db, what, r"^rave: error: .*cannot be written", "--port", "0", user=user)
        folder.chmod(0o755)


def main():
    rave = os.path.abspath(sys.argv[1])
    work = pathlib.Path(tempfile.mkdtemp(prefix="rave-study-server-"))
    procs = []
    try:
        data = work / "set"
        subprocess.run([rave, "generate", "-n", "10", "-o", str(data), "-s", "2", "-j", "2"], check=True,
                       stdout=subprocess.DEVNULL)
        work.chmod(0o755)
        for p in work.rglob("*"):  # readable by nobody (the read-only database check)
            p.chmod(0o755 if p.is_dir() else 0o644)
        db = work / "study.sqlite"
        proc, port = start(rave, data, db, "--port", "0")
        if port is None:
            raise SystemExit(f"FAIL: the server did not start: {proc.first_output}")
        procs.append(proc)
        refused(rave, data, work / "other.sqlite", "a port in use", r"^rave: error: 127\.0\.0\.1:\d+: cannot listen",
                "--port", str(port))
        refused(rave, data, db, "a database another server holds", r"^rave: error: .*another server has this study database",
                "--port", "0")
        manifest = data / "rave.json"
        original = manifest.read_text()
        manifest.write_text(json.dumps({**json.loads(original), "complete": False}, indent=2))
        refused(rave, data, work / "unfinished.sqlite", "an unfinished set", r"^rave: error: .*unfinished", "--port", "0")
        check(not (work / "unfinished.sqlite").exists(), "a refused unfinished set left a database")
        manifest.write_text(original)
        unwritable(rave, work, data)
        bad_requests(port, db)
        slow_clients(port)
        load_test(port)
    finally:
        for proc in procs:
            stop(proc)
        for p in work.rglob("*"):
            if p.is_dir():
                p.chmod(0o755)
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} study server check(s) failed")
        return 1
    print("all study server checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
