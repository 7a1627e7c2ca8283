#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clhistogram-probe --metrics with --web-config, against the running
probe with curl: TLS with a certificate openssl makes here (the URL says
https; a client that does not trust it, speaks plain HTTP or only TLS 1.2
under min_version TLS13 gets nothing), basic authentication (401 and its
challenge without credentials or with a wrong password, 200 with the
right one, /healthz the same), the configured header, client
certificates (one signed by client_ca_file taken, none or another
refused); the process_* and clhistogram_build_info series parsed and
sane; bad files refused with exit status 2 and the one line that names
the file, the line and the key.

    test_probe_web.py CLHISTOGRAM_PROBE VIDEO
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exposition  # noqa: E402
from exposition import series  # noqa: E402
from timeouts import seconds  # noqa: E402
from web_credentials import bcrypt, openssl, self_signed  # noqa: E402

PROBE = VIDEO = None
REALM = 'Basic realm="clhistogram-probe"'


def probe_env():
    return dict(os.environ, GST_DEBUG="0")


class Files:
    """The test's folder: certificates made with openssl as an
    administrator makes them, and web configuration files."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="probe-web-")

    def path(self, name):
        return os.path.join(self.dir, name)

    def self_signed(self, name, subject_alt="IP:127.0.0.1"):
        self_signed(self.dir, name, subject_alt)

    def signed(self, name, ca):
        """A client certificate signed by the CA `ca`."""
        openssl("req", "-newkey", "ec", "-pkeyopt",
                "ec_paramgen_curve:prime256v1", "-nodes", "-subj",
                f"/CN={name}", "-keyout", self.path(f"{name}.key"),
                "-out", self.path(f"{name}.csr"))
        self.write(f"{name}.ext", "basicConstraints=CA:FALSE\n"
                   "extendedKeyUsage=clientAuth\n")
        openssl("x509", "-req", "-in", self.path(f"{name}.csr"), "-CA",
                self.path(f"{ca}.pem"), "-CAkey", self.path(f"{ca}.key"),
                "-CAcreateserial", "-days", "2", "-extfile",
                self.path(f"{name}.ext"), "-out", self.path(f"{name}.pem"))

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def close(self):
        shutil.rmtree(self.dir)


class RunningProbe:
    """The probe counting VIDEO at its own pace with --metrics and
    --web-config; the URL it says once it listens."""

    def __init__(self, config):
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [PROBE, "--sync", "--quiet", "--metrics", "127.0.0.1:0",
             "--web-config", config, VIDEO],
            stdout=subprocess.DEVNULL, stderr=self.stderr, env=probe_env())
        self.url = None
        deadline = time.monotonic() + seconds(60)
        while not self.url and time.monotonic() < deadline:
            m = re.search(r"^clhistogram-probe: metrics on (\S+)$",
                          self.err(), re.M)
            if m:
                self.url = m.group(1)
            elif self.process.poll() is not None:
                break
            else:
                time.sleep(0.02)

    def err(self):
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.stderr.close()


class Answer:
    def __init__(self, done, headers, body):
        self.curl_status = done.returncode
        self.curl_error = done.stderr
        self.status = int(done.stdout or 0)
        self.headers = {}
        for line in headers.splitlines()[1:]:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()
        self.body = body


def curl(url, *args):
    """curl's answer to GET url: its exit status, the HTTP status (0 for
    none), the headers and the body."""
    with tempfile.TemporaryDirectory() as tmp:
        head, body = os.path.join(tmp, "head"), os.path.join(tmp, "body")
        done = subprocess.run(
            ["curl", "-sS", "--noproxy", "*", "--max-time",
             str(seconds(30)), "-D", head, "-o", body, "-w", "%{http_code}",
             *args, url], capture_output=True, text=True,
            timeout=seconds(60))
        read = {}
        for name, path in (("head", head), ("body", body)):
            try:
                with open(path) as f:
                    read[name] = f.read()
            except FileNotFoundError:
                read[name] = ""
        return Answer(done, read["head"], read["body"])


class WebConfig(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for tool in ("openssl", "curl"):
            if not shutil.which(tool):
                raise SystemExit(f"test_probe_web: no {tool}: install it "
                                 "(scripts/setup.sh does)")

    def setUp(self):
        self.files = Files()
        self.addCleanup(self.files.close)

    def run_probe(self, config):
        probe = RunningProbe(self.files.write("web.yml", config))
        self.addCleanup(probe.close)
        self.assertIsNotNone(probe.url, probe.err())
        return probe

    def test_tls_and_basic_auth(self):
        started = time.time()
        self.files.self_signed("server")
        probe = self.run_probe(f"""# TLS 1.3 only, one user
tls_server_config:
  cert_file: server.pem
  key_file: server.key
  min_version: TLS13
http_server_config:
  headers:
    X-Content-Type-Options: nosniff
basic_auth_users:
  prometheus: {bcrypt("scrape me")}
""")
        url = probe.url
        self.assertRegex(url, r"^https://127\.0\.0\.1:[1-9][0-9]*/metrics$")
        healthz = url[:-len("metrics")] + "healthz"
        trust = ("--cacert", self.files.path("server.pem"))
        right = ("-u", "prometheus:scrape me")

        for address, args in ((url, ()), (healthz, ()),
                              (url, ("-u", "prometheus:scrape m")),
                              (url, ("-u", "nobody:scrape me"))):
            answer = curl(address, *trust, *args)
            self.assertEqual(answer.status, 401, (address, args))
            self.assertEqual(answer.headers["www-authenticate"], REALM)
            self.assertEqual(answer.headers["x-content-type-options"],
                             "nosniff")
        answer = curl(healthz, *trust, *right)
        self.assertEqual((answer.status, answer.body), (200, "ok\n"))

        answer = curl(url, *trust, *right)
        self.assertEqual(answer.status, 200, answer.curl_error)
        self.assertEqual(answer.headers["x-content-type-options"], "nosniff")
        self.assertNotIn("www-authenticate", answer.headers)
        table = exposition.samples(exposition.parse(answer.body))
        self.check_own_series(table, started)
        self.assertIn(exposition.promtool_lint(answer.body), (None, []))

        # Not trusted, plain HTTP, TLS 1.2: nothing, whatever the
        # password (the right one each time, so that only TLS is
        # refused).
        self.assertEqual(curl(url, *right).curl_status, 60)
        plain = curl("http" + url[len("https"):], *right)
        self.assertNotEqual(plain.curl_status, 0)
        self.assertEqual(plain.status, 0)
        old = curl(url, *trust, *right, "--tls-max", "1.2")
        self.assertNotEqual(old.curl_status, 0)
        self.assertEqual(old.status, 0)
        self.assertEqual(curl(url, *trust, *right).status, 200)

    def check_own_series(self, table, started):
        """clhistogram_build_info and the process_* series: this probe's
        version, the process's descriptors, limit, memory and start."""
        version = subprocess.run([PROBE, "--version"], capture_output=True,
                                 text=True, env=probe_env(),
                                 timeout=seconds(60)).stdout.split()[1]
        info = [dict(labels) for (name, labels), value in table.items()
                if name == "clhistogram_build_info" and value == 1]
        self.assertEqual(len(info), 1, info)
        self.assertEqual(info[0]["version"], version)
        self.assertRegex(info[0]["gstreamer"], r"^1\.[0-9]+\.[0-9]+")
        fds = table[series("process_open_fds")]
        self.assertGreater(fds, 3)
        self.assertGreaterEqual(table[series("process_max_fds")], fds)
        start = table[series("process_start_time_seconds")]
        # btime is whole seconds: the start is known to a second.
        self.assertGreaterEqual(start, started - 1)
        self.assertLessEqual(start, time.time() + 1)
        rss = table[series("process_resident_memory_bytes")]
        self.assertGreater(rss, 1 << 20)
        self.assertGreaterEqual(
            table[series("process_virtual_memory_bytes")], rss)
        self.assertGreater(table[series("process_cpu_seconds_total")], 0)

    def test_client_certificates(self):
        self.files.self_signed("server")
        self.files.self_signed("clients-ca", "DNS:clients-ca")
        self.files.signed("scraper", "clients-ca")
        self.files.self_signed("stranger", "DNS:stranger")
        probe = self.run_probe("""tls_server_config:
  cert_file: server.pem
  key_file: server.key
  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: clients-ca.pem
""")
        trust = ("--cacert", self.files.path("server.pem"))

        def as_client(name):
            return ("--cert", self.files.path(f"{name}.pem"), "--key",
                    self.files.path(f"{name}.key"))

        answer = curl(probe.url, *trust, *as_client("scraper"))
        self.assertEqual(answer.status, 200, answer.curl_error)
        self.assertIn("\nprocess_open_fds ", answer.body)
        for args in ((), as_client("stranger")):
            answer = curl(probe.url, *trust, *args)
            self.assertNotEqual(answer.curl_status, 0, args)
            self.assertEqual(answer.status, 0, args)

    def test_bad_files(self):
        self.files.self_signed("server")
        self.files.self_signed("other")
        good = bcrypt("pw", 4)
        cases = {
            "tls_server_config:\n  cert_file: server.pem\n"
            "  key_file: server.key\n  ciphers: [x]\n":
                ':4: tls_server_config: unknown key "ciphers"; valid: '
                "cert_file, key_file, client_auth_type, client_ca_file, "
                "min_version",
            "tls_server_config:\n  cert_file: gone.pem\n"
            "  key_file: server.key\n":
                f':2: tls_server_config.cert_file "{self.files.dir}/gone.pem":'
                " cannot open it: No such file or directory",
            "tls_server_config:\n  cert_file: server.pem\n"
            "  key_file: other.key\n":
                ':3: tls_server_config.key_file "other.key": a TLS handshake '
                "with this certificate and key fails",
            f"basic_auth_users:\n  a: {good}\n  b: {good[:-1]}\n":
                ":3: basic_auth_users: b: not a bcrypt hash",
        }
        config = self.files.path("web.yml")
        for text, words in cases.items():
            self.files.write("web.yml", text)
            done = subprocess.run([PROBE, "--quiet", "--metrics",
                                   "127.0.0.1:0", "--web-config", config,
                                   VIDEO], capture_output=True, text=True,
                                  env=probe_env(), timeout=seconds(60))
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertEqual(done.stderr.count("\n"), 1, done.stderr)
            self.assertTrue(done.stderr.startswith(
                f"clhistogram-probe: --web-config: {config}:"), done.stderr)
            self.assertIn(words, done.stderr)
        done = subprocess.run([PROBE, "--quiet", "--web-config", config,
                               VIDEO], capture_output=True, text=True,
                              env=probe_env(), timeout=seconds(60))
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertEqual(done.stderr, "clhistogram-probe: --web-config: only "
                         "with --metrics ADDRESS:PORT, whose server it sets "
                         "up\n")


if __name__ == "__main__":
    PROBE, VIDEO = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    unittest.main(argv=sys.argv[:1], verbosity=2)
