#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The container image of deploy/Containerfile, built and run with
Debian's podman, as root, where the machine lets podman run containers.

The base is no registry's (none can be reached): the cached minimal
debootstrap of Debian 12 that scripts/debian-chroot.sh keeps (made
first if missing), imported with `podman import`. The image is built
from the project's Debian 12 packages in $CLH_CONTAINER_DEBS
(scripts/ci-slow.sh builds them), then:
  - the image runs the probe as user 9610 and exposes 9610;
  - given a key file that only root can read, the probe (not root) says
    it cannot read it and exits with status 2: the check that the key
    file's owner and mode matter;
  - given the key file as a podman secret (uid 9610, mode 0400) and
    vtest.avi mounted, on a read-only root with its cache a tmpfs of its
    own, no capabilities: the probe runs as uid 9610, /metrics (port 9610
    published on 127.0.0.1) shows the input up and
    clhistogram_frames_total growing between two scrapes, the compiled
    kernels land in the cache, and `podman stop` (SIGTERM) ends it with
    exit status 0.
Where podman's defaults cannot start a container here (its default open
files limit above this machine's hard limit without CAP_SYS_RESOURCE,
crun refusing cgroups v1 with a controller left on v2), the test retries
with the limits of this process and runc, and says so; if that fails too,
or podman, root or the packages are missing, it is skipped (exit 77)
saying exactly why.

    test_container.py CONTAINERFILE VIDEO
"""
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from timeouts import seconds

USER = 9610
KEY_FILE = "/etc/clhistogram/probe.conf"
INPUT = "vtest"
SKIP = 77


def podman(*args, timeout=120, check=True, **kwargs):
    result = subprocess.run(["podman", *args], capture_output=True, text=True,
                            timeout=seconds(timeout), **kwargs)
    if check and result.returncode != 0:
        raise RuntimeError(f"podman {' '.join(args)}: exit status "
                           f"{result.returncode}\n{result.stderr.strip()}")
    return result


def skip(why):
    print(f"test_container: skipped: {why}")
    return SKIP


def base_root():
    """The cached debootstrap of Debian 12, made by debian-chroot.sh if
    missing (it needs root, debootstrap and Debian's archive)."""
    cache = os.environ.get("CLH_CHROOT_CACHE", "/var/cache/clhistogram/chroot")
    root = os.path.join(cache, "bookworm")
    if not os.path.exists(os.path.join(root, ".clhistogram-base")):
        script = os.path.join(os.path.dirname(__file__), "..", "scripts",
                              "debian-chroot.sh")
        made = subprocess.run([script, "bookworm", "container-base", "true"],
                              capture_output=True, text=True)
        subprocess.run([script, "--remove", "container-base"])
        if made.returncode != 0:
            return None, made.stderr.strip()
    return root, None


def fallback_conf(tmp):
    """A containers.conf with this process's limits of open files, a few
    thousand processes (the probe needs tens of threads an input) and runc
    where installed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    path = os.path.join(tmp, "containers.conf")
    with open(path, "w") as f:
        f.write(f'[containers]\ndefault_ulimits = ["nofile={soft}:{hard}", '
                f'"nproc=4096:4096"]\n')
        if shutil.which("runc"):
            f.write('[engine]\nruntime = "runc"\n')
    return path


def usable_podman(base, tmp):
    """None where containers run (CONTAINERS_CONF set if they need the
    fallback), else why not."""
    tried = podman("run", "--rm", base, "true", check=False)
    if tried.returncode == 0:
        return None
    conf = fallback_conf(tmp)
    os.environ["CONTAINERS_CONF"] = conf
    again = podman("run", "--rm", base, "true", check=False)
    if again.returncode == 0:
        with open(conf) as f:
            print(f"podman's defaults cannot run a container here "
                  f"({tried.stderr.strip()}); running with {conf}:\n{f.read()}")
        return None
    return (f"podman cannot run a container here: {tried.stderr.strip()}; "
            f"nor with this process's limits and runc: {again.stderr.strip()}")


def scrape(url):
    with urllib.request.urlopen(url, timeout=seconds(10)) as reply:
        return reply.read().decode()


def sample(text, name):
    """The value of name{input="vtest"} in a scrape, or None."""
    match = re.search(rf'^{name}{{input="{INPUT}"}} (\S+)$', text, re.M)
    return float(match.group(1)) if match else None


def wait_for(what, probe, bound):
    """probe()'s first true value, polled every half second, or an
    AssertionError after bound seconds (scaled)."""
    deadline = time.monotonic() + seconds(bound)
    while time.monotonic() < deadline:
        try:
            value = probe()
        except OSError:
            value = None
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"{what}: not within {seconds(bound):.0f} s")


def check_image(image):
    user = podman("image", "inspect", image, "--format", "{{.Config.User}}").stdout.strip()
    ports = podman("image", "inspect", image, "--format",
                   "{{.Config.ExposedPorts}}").stdout.strip()
    assert user == f"{USER}:{USER}", f"the image's user is {user!r}"
    assert "9610/tcp" in ports, f"the image exposes {ports}"
    print(f"image: user {user}, ports {ports}")


def check_unreadable_key_file(image, tmp):
    """A key file only root can read: the probe, not root, refuses it."""
    key = os.path.join(tmp, "root-only.conf")
    with open(key, "w") as f:
        f.write(f"[{INPUT}]\nuri=/data/vtest.avi\n")
    os.chmod(key, 0o600)
    got = podman("run", "--rm", "-v", f"{key}:{KEY_FILE}:ro", image,
                 check=False, timeout=300)
    assert got.returncode == 2 and KEY_FILE in got.stderr \
        and "ermission denied" in got.stderr, (
            f"a key file only root can read: exit status {got.returncode}, "
            f"stderr {got.stderr.strip()!r}")
    print(f"a key file only root can read is refused: {got.stderr.strip()}")


def run_probe(image, secret, video, name):
    podman("run", "-d", "--name", name, "--read-only",
           "--mount", "type=tmpfs,destination=/var/cache/clhistogram,"
           "tmpfs-mode=0700,U=true",
           "--cap-drop", "all", "--security-opt", "no-new-privileges",
           "-p", "127.0.0.1::9610", "-v", f"{video}:/data/vtest.avi:ro",
           "--secret", f"{secret},target={KEY_FILE},uid={USER},gid={USER},mode=0400",
           image)
    address = podman("port", name, "9610/tcp").stdout.strip().splitlines()[0]
    url = f"http://{address}/metrics"
    pid = podman("inspect", name, "--format", "{{.State.Pid}}").stdout.strip()
    with open(f"/proc/{pid}/status") as f:
        uid = re.search(r"^Uid:\s+(\d+)", f.read(), re.M).group(1)
    assert uid == str(USER), f"the probe runs as uid {uid}"
    print(f"the probe runs as uid {uid}; metrics on {url}")
    first = wait_for("frames counted", lambda: sample(scrape(url), "clhistogram_frames_total"),
                     180)
    text = scrape(url)
    assert sample(text, "clhistogram_input_up") == 1, "the input is not up"
    later = wait_for("more frames counted", lambda: (
        lambda n: n if n and n > first else None)(
            sample(scrape(url), "clhistogram_frames_total")), 60)
    print(f"clhistogram_frames_total {first:.0f}, then {later:.0f}")
    cache = podman("exec", name, "find", "/var/cache/clhistogram", "-type", "f").stdout
    assert "/var/cache/clhistogram/clhistogram/" in cache, (
        f"no compiled kernel in the cache: {cache!r}")
    podman("stop", "-t", str(int(seconds(30))), name, timeout=60)
    status = podman("inspect", name, "--format", "{{.State.ExitCode}}").stdout.strip()
    assert status == "0", f"podman stop: exit status {status}"
    print("podman stop: exit status 0")


def main():
    containerfile, video = (os.path.abspath(a) for a in sys.argv[1:3])
    debs = os.environ.get("CLH_CONTAINER_DEBS", "")
    if not debs or not any(f.startswith("clhistogram-tools_") for f in os.listdir(debs)):
        return skip("CLH_CONTAINER_DEBS names no folder of the Debian 12 packages "
                    f"({debs!r}; scripts/ci-slow.sh builds them)")
    if not shutil.which("podman"):
        return skip("no podman (Debian's podman package)")
    if os.geteuid() != 0:
        return skip("not root: the base image is imported from root's debootstrap")
    root, why = base_root()
    if not root:
        return skip(f"no Debian 12 debootstrap to import: {why}")
    tmp = tempfile.mkdtemp(prefix="clh-container-")
    tag = f"clh-test-{os.getpid()}"
    base, image = f"localhost/{tag}-base:bookworm", f"localhost/{tag}:probe"
    made = []
    try:
        tar = subprocess.Popen(["tar", "-C", root, "-cf", "-", "."], stdout=subprocess.PIPE)
        podman("import", "-", base, stdin=tar.stdout, timeout=600)
        tar.wait()
        made.append(("rmi", base))
        why = usable_podman(base, tmp)
        if why:
            return skip(why)
        print(f"=== podman build -f {containerfile} {debs}")
        built = podman("build", "-f", containerfile, "--build-arg", f"BASE={base}",
                       "-t", image, debs, timeout=1200, check=False)
        if built.returncode != 0:
            print(built.stdout[-4000:], built.stderr[-4000:])
            raise AssertionError("podman build failed")
        made.append(("rmi", image))
        check_image(image)
        check_unreadable_key_file(image, tmp)
        key = os.path.join(tmp, "probe.conf")
        with open(key, "w") as f:
            f.write(f"[{INPUT}]\nuri=/data/vtest.avi\nsync=true\n")
        podman("secret", "create", tag, key)
        made.append(("secret", tag))
        made.append(("container", tag))
        run_probe(image, tag, video, tag)
    except (AssertionError, RuntimeError) as e:
        print("FAIL:", e)
        logs = podman("logs", tag, check=False)
        print(logs.stdout[-4000:], logs.stderr[-4000:])
        return 1
    finally:
        for kind, name in reversed(made):
            if kind == "container":
                podman("rm", "-f", "-t", "0", name, check=False)
            elif kind == "secret":
                podman("secret", "rm", name, check=False)
            else:
                podman("rmi", "-f", name, check=False)
        shutil.rmtree(tmp, ignore_errors=True)
    print("test_container: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
