# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the tests of clhistogram-probe --web-config make as an
administrator would: bcrypt password hashes and self-signed
certificates."""
import ctypes
import os
import subprocess

from timeouts import seconds


def bcrypt(password, cost=10):
    """A $2y$ hash of password, as htpasswd -nBC 10 makes one, by
    libxcrypt (libcrypt.so.1, which every Debian has): no python3-bcrypt
    needed."""
    crypt = ctypes.CDLL("libcrypt.so.1")
    crypt.crypt_gensalt.restype = ctypes.c_char_p
    crypt.crypt.restype = ctypes.c_char_p
    setting = crypt.crypt_gensalt(b"$2y$", cost, None, 0)
    return crypt.crypt(password.encode(), setting).decode()


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, capture_output=True,
                   timeout=seconds(60))


def self_signed(folder, name, subject_alt="IP:127.0.0.1"):
    """NAME.pem and NAME.key in folder: a P-256 certificate for
    subject_alt, signed by its own key, valid two days."""
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt",
            "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-subj", f"/CN={name}", "-addext",
            f"subjectAltName={subject_alt}",
            "-keyout", os.path.join(folder, f"{name}.key"),
            "-out", os.path.join(folder, f"{name}.pem"))
